import FileModel

extension SQLiteError: CategorizedError {
    /// The journal and the cache index are local files.
    package var category: ErrorCategory { .localFile }
}
