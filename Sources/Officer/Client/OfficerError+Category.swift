import FileModel
import HTTP

extension OfficerError: CategorizedError {
    /// What kind of failure this is.
    package var category: ErrorCategory {
        switch self {
        case .notSignedIn, .invalidCredentials: .authentication
        case .notFound: .notFound
        case .conflict: .conflict
        case .forbidden, .badRequest, .notOffered: .refused
        case .server(_, 507, _): .serverFull
        case .server, .malformedResponse, .notOfficerServer, .serverElsewhere: .server
        case .transport(let inner, _): inner.category
        case .invalidPath: .invalidInput
        }
    }
}
