import Foundation

/// What preparing one image gave.
public struct PreparedImage: Sendable, Equatable {
    /// The file to upload: the prepared copy, or the original when that was already best.
    public var path: String
    /// Its format.
    public var format: ImageOutputFormat
    /// Its dimensions.
    public var width: Int
    /// Its dimensions.
    public var height: Int
    /// Its size in bytes.
    public var bytes: Int64
    /// True when the original goes up untouched (it fits, carries nothing to strip, and re-encoding did not shrink it).
    public var usedOriginal: Bool

    /// What preparing gave, as told.
    public init(path: String, format: ImageOutputFormat, width: Int, height: Int, bytes: Int64, usedOriginal: Bool) {
        self.path = path
        self.format = format
        self.width = width
        self.height = height
        self.bytes = bytes
        self.usedOriginal = usedOriginal
    }
}
