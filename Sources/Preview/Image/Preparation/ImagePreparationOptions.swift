/// The encodings an image can be prepared into.
public enum ImageOutputFormat: String, Sendable, Codable {
    /// JPEG with optimized Huffman tables (transparency composited onto white).
    case jpeg
    /// 8-bit PNG.
    case png
    /// WebP.
    case webp
    /// TIFF, deflate-compressed.
    case tiff
    /// GIF (where libvips was built with cgif).
    case gif

    /// The file extension, without the dot.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .tiff: "tif"
        default: rawValue
        }
    }
}

/// What `--format` asks for.
///
/// Its cases are all there will be: a `switch` over it needs no `default`.
public enum ImageFormatChoice: String, Sendable, Codable, CaseIterable {
    /// JPEG for everything (transparency onto white).
    case jpeg
    /// WebP for everything.
    case webp
    /// The image's own format wherever libvips writes it (JPEG, PNG, WebP, TIFF, GIF); HEIC becomes JPEG.
    case keep
}

/// How images are made ready for upload (the seed: longest edge 2048 px, JPEG at 85 %, no GPS).
public struct ImagePreparationOptions: Sendable, Hashable, Codable {
    /// Longest edge in pixels; smaller images are never upsized.
    public var maxEdge = 2048
    /// JPEG / WebP quality, 1–100.
    public var quality = 85
    /// Output format choice.
    public var format = ImageFormatChoice.keep
    /// Keep EXIF/XMP/IPTC metadata (GPS included) instead of stripping it.
    public var keepMetadata = false
    /// Images with more pixels than this are refused before decoding (pixel bombs).
    public var pixelLimit = 100_000_000

    /// The defaults.
    public init() {}

    /// A stable text of the settings, for cache keys: the same source and settings give the same file.
    package var signature: String { "edge=\(maxEdge),q=\(quality),format=\(format.rawValue),meta=\(keepMetadata)" }
}
