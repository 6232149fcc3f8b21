import FileModel

extension MagicError: CategorizedError {
    /// libmagic reads local files and its own database.
    public var category: ErrorCategory { .localFile }
}
