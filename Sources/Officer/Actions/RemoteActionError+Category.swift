import FileModel
import Transfer

extension RemoteActionError: CategorizedError {
    /// What kind of failure this is: a step's own category when a step failed.
    package var category: ErrorCategory {
        switch self {
        case .unsupported, .notAFile: .refused
        case .server(_, let inner), .actionFailed(_, _, _, let inner): inner.category
        case .upload(_, let inner): inner.category
        case .download(_, let inner): inner.category
        case .localFile: .localFile
        case .timedOut: .network
        case .outputExists: .conflict
        }
    }
}
