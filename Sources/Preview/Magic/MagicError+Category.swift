import FileModel

extension MagicError: CategorizedError {
    /// libmagic reads local files and its own database.
    package var category: ErrorCategory { .localFile }
}
