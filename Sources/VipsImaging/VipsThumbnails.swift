import Foundation
import Preview

/// Makes JPEG thumbnails with libvips: shrink-on-load (a JPEG is decoded at 1/2, 1/4 or 1/8 size), never
/// upsized, shown the way EXIF orientation says.
enum VipsThumbnails {
    /// JPEG quality of thumbnails: small files, no visible loss at thumbnail size.
    static let quality = 80

    /// A thumbnail of the image file at `path`, longest edge at most `size`; failures name the file `shownAs`
    /// (a remote file's location rather than the scratch copy it was fetched to).
    static func thumbnail(ofFile path: String, size: Int, shownAs: String? = nil) throws -> ThumbnailImage {
        do {
            return try encode(try VipsImage.thumbnail(of: path, maxEdge: size), name: path)
        } catch let error as VipsError {
            guard let shownAs else { throw error }
            throw error.naming(shownAs)
        }
    }

    /// A thumbnail from a camera's embedded one: shrunk when larger than `size`, turned as the main image is.
    static func thumbnail(of embedded: ExifThumbnail, size: Int) throws -> ThumbnailImage {
        let input = scratchPath("exif.jpg")
        defer { unlink(input) }
        try embedded.jpeg.write(to: URL(fileURLWithPath: input))
        return try encode(try VipsImage.thumbnail(of: input, maxEdge: size).oriented(embedded.orientation), name: input)
    }

    private static func encode(_ image: VipsImage, name: String) throws -> ThumbnailImage {
        let output = scratchPath("thumb.jpg")
        defer { unlink(output) }
        do {
            try image.writeJPEG(to: output, quality: quality, stripMetadata: true)
        } catch .saveFailed(_, let message) where !VipsError.isWriteProblem(message) {
            // Pixels are decoded only as they are written: a damaged input fails here, and is the input's fault.
            throw VipsError.loadFailed(file: name, message: VipsError.message(message, about: name))
        }
        return ThumbnailImage(
            jpeg: try Data(contentsOf: URL(fileURLWithPath: output)), width: image.width, height: image.height)
    }

    /// A private temp file name for one step.
    private static func scratchPath(_ suffix: String) -> String {
        NSTemporaryDirectory() + "/officer-thumb-\(getpid())-\(UUID().uuidString)-\(suffix)"
    }
}
