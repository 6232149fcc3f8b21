import Foundation

/// What preparing one image gave.
package struct PreparedImage: Sendable, Equatable {
    /// The file to upload: the prepared copy, or the original when that was already best.
    package var path: String
    /// Its format.
    package var format: ImageOutputFormat
    /// Its dimensions.
    package var width: Int
    /// Its dimensions.
    package var height: Int
    /// Its size in bytes.
    package var bytes: Int64
    /// True when the original goes up untouched (it fits, carries nothing to strip, and re-encoding did not shrink it).
    package var usedOriginal: Bool

    /// What preparing gave, as told.
    package init(path: String, format: ImageOutputFormat, width: Int, height: Int, bytes: Int64, usedOriginal: Bool) {
        self.path = path
        self.format = format
        self.width = width
        self.height = height
        self.bytes = bytes
        self.usedOriginal = usedOriginal
    }
}
