/// A libvips failure, naming the file and carrying libvips' own message.
package enum VipsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `VIPS_INIT` failed.
    case initializationFailed(String)
    /// The file could not be opened as an image.
    case loadFailed(file: String, message: String)
    /// An image operation failed.
    case operationFailed(operation: String, message: String)
    /// Writing the result failed.
    case saveFailed(file: String, message: String)

    /// A one-line message.
    package var description: String {
        switch self {
        case .initializationFailed(let message): "libvips: initialization failed: \(message)"
        case .loadFailed(let file, let message): "\(file): cannot read image: \(message)"
        case .operationFailed(let operation, let message): "libvips: \(operation) failed: \(message)"
        case .saveFailed(let file, let message): "\(file): cannot write image: \(message)"
        }
    }
}
