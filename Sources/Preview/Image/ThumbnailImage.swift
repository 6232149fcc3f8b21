import Foundation

/// A JPEG thumbnail made here, and its size.
public struct ThumbnailImage: Sendable, Equatable {
    /// The JPEG's bytes.
    public var jpeg: Data
    /// Pixels across.
    public var width: Int
    /// Pixels down.
    public var height: Int

    /// A thumbnail as given.
    public init(jpeg: Data, width: Int, height: Int) {
        self.jpeg = jpeg
        self.width = width
        self.height = height
    }
}
