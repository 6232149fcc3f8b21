import Foundation

/// Makes JPEG thumbnails through the installed ``ImagePreparing`` plug-in: shrink-on-load, never upsized, shown
/// the way EXIF orientation says.
package enum ThumbnailMaker {
    /// A thumbnail of the image file at `path`, longest edge at most `size`; failures name the file `shownAs`
    /// (a remote file's location rather than the scratch copy it was fetched to).
    package static func thumbnail(ofFile path: String, size: Int, shownAs: String? = nil) throws -> ThumbnailImage {
        try ImagePreparer.installed(for: shownAs ?? path).thumbnail(ofFile: path, size: size, shownAs: shownAs)
    }

    /// A thumbnail from a camera's embedded one: shrunk when larger than `size`, turned as the main image is.
    package static func thumbnail(of embedded: ExifThumbnail, size: Int) throws -> ThumbnailImage {
        try ImagePreparer.installed(for: "the embedded thumbnail").thumbnail(of: embedded, size: size)
    }
}
