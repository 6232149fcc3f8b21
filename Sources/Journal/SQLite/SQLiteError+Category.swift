import FileModel

extension SQLiteError: CategorizedError {
    /// The journal and the cache index are local files.
    public var category: ErrorCategory { .localFile }
}
