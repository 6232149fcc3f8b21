import Foundation

/// A JPEG thumbnail made here, and its size.
package struct ThumbnailImage: Sendable, Equatable {
    /// The JPEG's bytes.
    package var jpeg: Data
    /// Pixels across.
    package var width: Int
    /// Pixels down.
    package var height: Int

    /// A thumbnail as given.
    package init(jpeg: Data, width: Int, height: Int) {
        self.jpeg = jpeg
        self.width = width
        self.height = height
    }
}
