import FileModel
import HTTP

extension DownloadError: CategorizedError {
    /// What kind of failure this is.
    package var category: ErrorCategory {
        switch self {
        case .destinationExists, .destinationIsDirectory, .busy: .conflict
        case .server(_, let status, _): .of(httpStatus: status)
        case .checksumMismatch, .damagedStream: .integrity
        case .lengthMismatch, .unstable, .unexpectedAnswer: .server
        case .transfer(let inner): inner.category
        case .journal, .localFile, .noSuchFolder: .localFile
        }
    }
}
