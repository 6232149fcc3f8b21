import FileModel

extension ImageError: CategorizedError {
    /// What kind of failure this is.
    package var category: ErrorCategory {
        switch self {
        case .invalidOption: .invalidInput
        case .writeFailed, .unreadable: .localFile
        case .outputExists: .conflict
        case .unsupported, .tooManyPixels, .undecodable, .outputIsInput, .wouldSendPosition, .notAvailable: .refused
        }
    }
}
