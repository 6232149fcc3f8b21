import FileModel

extension SyncRootError: CategorizedError {
    /// What kind of failure this is.
    package var category: ErrorCategory {
        switch self {
        case .notAFolder: .conflict
        case .missing: .localFile
        }
    }
}
