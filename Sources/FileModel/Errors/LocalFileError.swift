/// A local path that is not what an operation needs.
package struct LocalFileError: Error, Equatable, Sendable, CustomStringConvertible, CategorizedError {
    /// What is wrong with the path.
    package enum Problem: Sendable, Equatable {
        /// Nothing is there.
        case missing
        /// A folder where a file is needed.
        case isAFolder
        /// Not an existing folder where one is needed.
        case notAFolder
        /// Something is there, and replacing it was not asked for.
        case exists
        /// The system refused to write it, in its own words.
        case unwritable(String)
    }

    /// The path as the caller gave it.
    package var path: String
    /// What is wrong.
    package var problem: Problem

    /// An error for `path`.
    package init(path: String, problem: Problem) {
        self.path = path
        self.problem = problem
    }

    /// One line naming the path.
    package var description: String {
        switch problem {
        case .missing: "\(path): no such file or folder"
        case .isAFolder: "\(path): is a folder"
        case .notAFolder: "\(path): not an existing folder"
        case .exists: "\(path): already exists"
        case .unwritable(let message): "\(path): cannot write: \(message)"
        }
    }

    /// A local-file problem; an existing file not to be replaced is a conflict.
    package var category: ErrorCategory { problem == .exists ? .conflict : .localFile }
}
