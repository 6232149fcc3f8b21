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

/// Makes JPEG thumbnails with libvips: shrink-on-load (a JPEG is decoded at 1/2, 1/4 or 1/8 size), never
/// upsized, shown the way EXIF orientation says.
public enum ThumbnailMaker {
    /// JPEG quality of thumbnails: small files, no visible loss at thumbnail size.
    static let quality = 80

    /// A thumbnail of the image file at `path`, longest edge at most `size`.
    public static func thumbnail(ofFile path: String, size: Int) throws -> ThumbnailImage {
        try encode(try VipsImage.thumbnail(of: path, maxEdge: size), name: path)
    }

    /// A thumbnail from a camera's embedded one: shrunk when larger than `size`, turned as the main image is.
    public static func thumbnail(of embedded: ExifThumbnail, size: Int) throws -> ThumbnailImage {
        let input = scratchPath("exif.jpg")
        defer { unlink(input) }
        try embedded.jpeg.write(to: URL(fileURLWithPath: input))
        return try encode(try VipsImage.thumbnail(of: input, maxEdge: size).oriented(embedded.orientation), name: input)
    }

    private static func encode(_ image: VipsImage, name: String) throws -> ThumbnailImage {
        let output = scratchPath("thumb.jpg")
        defer { unlink(output) }
        try image.writeJPEG(to: output, quality: quality, stripMetadata: true)
        return ThumbnailImage(jpeg: try Data(contentsOf: URL(fileURLWithPath: output)), width: image.width, height: image.height)
    }

    /// A private temp file name for one step.
    private static func scratchPath(_ suffix: String) -> String {
        NSTemporaryDirectory() + "/officer-thumb-\(getpid())-\(UUID().uuidString)-\(suffix)"
    }
}
