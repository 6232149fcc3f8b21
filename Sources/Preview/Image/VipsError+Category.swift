import FileModel

extension VipsError: CategorizedError {
    /// What kind of failure this is.
    package var category: ErrorCategory {
        switch self {
        case .initializationFailed, .operationFailed: .refused
        case .loadFailed, .saveFailed: .localFile
        }
    }
}
