import Foundation

/// What decodes, resizes and re-encodes images: a plug-in (libvips on Linux; an Apple app's could use ImageIO,
/// given in its front door's configuration). Without one, preparing an image other than a JPEG (sent as it is,
/// its position removed) and making a thumbnail fail with ``ImageError/notAvailable(file:)``, and facts carry no
/// image header beyond what the first bytes tell.
public protocol ImagePreparing: Sendable {
    /// The library behind it, for `--version`.
    var libraryVersion: String { get }
    /// Whether GIFs can be written (libvips built with cgif).
    var canWriteGIF: Bool { get }
    /// Whether `input` may be sent as it is (already within the options' size, format and quality, holding no
    /// metadata to strip); asked only when metadata is not kept.
    func mayGoUpUnchanged(_ input: String, options: ImagePreparationOptions) -> Bool
    /// The format `input` is written in as the options ask, the name it is stored under (`target`) considered.
    func outputFormat(for input: String, named target: String?, options: ImagePreparationOptions)
        throws(ImageError) -> ImageOutputFormat
    /// Writes `input` prepared as the options say to the file `output` (replacing it); `name` names it in errors.
    func prepare(_ input: String, to output: String, named name: String?, options: ImagePreparationOptions)
        throws(ImageError) -> PreparedImage
    /// The same for a file a user named as the output (`overwrite`: an existing one may be replaced).
    func prepareFile(_ input: String, to output: String, overwrite: Bool, options: ImagePreparationOptions)
        throws(ImageError) -> PreparedImage
    /// A JPEG thumbnail of the image file at `path`, longest edge at most `size`, turned as its EXIF
    /// orientation says; `shownAs` names it in errors.
    func thumbnail(ofFile path: String, size: Int, shownAs: String?) throws -> ThumbnailImage
    /// A JPEG thumbnail made from a camera's embedded EXIF thumbnail.
    func thumbnail(of embedded: ExifThumbnail, size: Int) throws -> ThumbnailImage
    /// The size and EXIF facts of the image file at `path`, nil if its header cannot be read.
    func imageFacts(file path: String) -> FileFacts.ImageFacts?
    /// The size and EXIF facts of the image `source` holds; a failure of the source is thrown as it is.
    func imageFacts(source: any ByteSource, name: String) throws -> FileFacts.ImageFacts
}
