import FileModel

extension ArchiveError: CategorizedError {
    /// What kind of failure this is.
    public var category: ErrorCategory {
        switch self {
        case .allocationFailed, .openFailed, .readFailed, .notAnArchive: .localFile
        case .notAFile, .encrypted, .tooLarge, .notAvailable: .refused
        }
    }
}
