import FileModel

extension SyncRootError: CategorizedError {
    /// What kind of failure this is.
    package var category: ErrorCategory {
        switch self {
        case .notAFolder: .conflict
        // As any other missing path: a local one is this machine's (exit 8), a remote one not found (exit 4).
        case .missing(_, let onThisMachine): onThisMachine ? .localFile : .notFound
        }
    }
}
