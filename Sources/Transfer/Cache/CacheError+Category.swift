import FileModel

extension CacheError: CategorizedError {
    /// What kind of failure this is.
    package var category: ErrorCategory {
        switch self {
        case .index, .io: .localFile
        case .tooLarge: .refused
        case .notCached: .notFound
        case .damaged: .integrity
        }
    }
}
