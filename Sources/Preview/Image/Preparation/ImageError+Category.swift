import FileModel

extension ImageError: CategorizedError {
    /// What kind of failure this is.
    public var category: ErrorCategory {
        switch self {
        case .invalidOption: .invalidInput
        case .writeFailed, .unreadable: .localFile
        case .outputExists: .conflict
        // A file that is no image at all is a local-file problem, as `thumb` and `info` say (docs/CLI.md); a damaged
        // image or one this cannot prepare is refused.
        case .undecodable(_, let message) where VipsError.isUnknownFormat(message): .localFile
        case .unsupported(_, let detail) where detail == "unknown format" || !detail.hasPrefix("image/"): .localFile
        case .unsupported, .tooManyPixels, .undecodable, .outputIsInput, .wouldSendPosition, .notAvailable: .refused
        }
    }
}
