import FileModel

extension ArchiveError: CategorizedError {
    /// What kind of failure this is.
    public var category: ErrorCategory {
        switch self {
        case .allocationFailed, .openFailed, .readFailed: .localFile
        case .notAFile, .encrypted, .tooLarge: .refused
        }
    }
}
