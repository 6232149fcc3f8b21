/// A local path that is not what an operation needs.
public struct LocalFileError: Error, Equatable, Sendable, CustomStringConvertible, CategorizedError {
    /// What is wrong with the path.
    public enum Problem: Sendable, Equatable {
        /// Nothing is there.
        case missing
        /// A folder where a file is needed.
        case isAFolder
        /// Not an existing folder where one is needed.
        case notAFolder
    }

    /// The path as the caller gave it.
    public var path: String
    /// What is wrong.
    public var problem: Problem

    /// An error for `path`.
    public init(path: String, problem: Problem) {
        self.path = path
        self.problem = problem
    }

    /// One line naming the path.
    public var description: String {
        switch problem {
        case .missing: "\(path): no such file"
        case .isAFolder: "\(path): is a folder"
        case .notAFolder: "\(path): not an existing folder"
        }
    }

    /// A local-file problem.
    public var category: ErrorCategory { .localFile }
}
