import FileModel

extension MagicError: CategorizedError {
    /// libmagic reads local files and its own database; a missing plug-in is refused.
    package var category: ErrorCategory { self == .notAvailable ? .refused : .localFile }
}
