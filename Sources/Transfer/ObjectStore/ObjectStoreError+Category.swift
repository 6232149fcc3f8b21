import FileModel
import HTTP

extension ObjectStoreError: CategorizedError {
    /// What kind of failure this is.
    package var category: ErrorCategory {
        switch self {
        case .server(_, let status, _, _): .of(httpStatus: status)
        case .noSuchBucket, .noSuchKey, .noSuchFolder: .notFound
        case .accessDenied: .authentication
        case .clockSkewed: .refused
        case .malformedAnswer: .server
        case .transfer(let inner): inner.category
        case .localFile: .localFile
        case .integrity: .integrity
        case .invalidAddress: .invalidInput
        }
    }
}
