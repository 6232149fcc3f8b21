import FileModel

extension SyncRootError: CategorizedError {
    /// What kind of failure this is.
    public var category: ErrorCategory {
        switch self {
        case .notAFolder: .conflict
        case .missing: .localFile
        }
    }
}
