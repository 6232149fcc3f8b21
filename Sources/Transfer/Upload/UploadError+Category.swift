import FileModel
import HTTP

extension UploadError: CategorizedError {
    /// What kind of failure this is; a paused upload counts as cancelled (the server keeps what it has).
    package var category: ErrorCategory {
        switch self {
        case .localFile, .journal, .sourceChanged: .localFile
        case .notStored: .server
        case .storedBytesDiffer: .integrity
        case .serverFull: .serverFull
        case .notTus: .invalidInput
        case .tooLarge, .lengthRequired: .refused
        case .server(_, let status, _): .of(httpStatus: status)
        case .protocolViolation, .checksumRejected: .server
        case .transfer(let inner): inner.category
        case .cancelled, .paused: .cancelled
        }
    }
}
