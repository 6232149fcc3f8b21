import FileModel

extension MagicError: CategorizedError {
    /// libmagic reads local files and its own database; a missing plug-in is refused.
    public var category: ErrorCategory { self == .notAvailable ? .refused : .localFile }
}
