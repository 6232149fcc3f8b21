import FileModel

extension VipsError: CategorizedError {
    /// What kind of failure this is.
    public var category: ErrorCategory {
        switch self {
        case .initializationFailed, .operationFailed: .refused
        case .loadFailed, .saveFailed: .localFile
        }
    }
}
