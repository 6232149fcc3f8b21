import Foundation

extension PreparedImage {
    /// The prepared copy (``path``) as a file URL.
    public var fileURL: URL { URL(fileURLWithPath: path) }
}
