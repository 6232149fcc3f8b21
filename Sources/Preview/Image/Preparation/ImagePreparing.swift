import Foundation

/// What decodes, resizes and re-encodes images: a platform plug-in (libvips on Linux; an Apple app's could use
/// ImageIO). Without one, ``ImagePreparer`` and ``ThumbnailMaker`` fail with ``ImageError/notAvailable(file:)``,
/// and facts carry no image header beyond what the first bytes tell.
package protocol ImagePreparing: Sendable {
    /// The library behind it, for `--version`.
    var libraryVersion: String { get }
    /// Whether GIFs can be written (libvips built with cgif).
    var canWriteGIF: Bool { get }
    /// See ``ImagePreparer/mayGoUpUnchanged(_:)``; asked only when metadata is not kept.
    func mayGoUpUnchanged(_ input: String, options: ImagePreparationOptions) -> Bool
    /// See ``ImagePreparer/outputFormat(for:named:)``.
    func outputFormat(for input: String, named target: String?, options: ImagePreparationOptions)
        throws(ImageError) -> ImageOutputFormat
    /// See ``ImagePreparer/prepare(_:to:named:)``.
    func prepare(_ input: String, to output: String, named name: String?, options: ImagePreparationOptions)
        throws(ImageError) -> PreparedImage
    /// See ``ImagePreparer/prepareFile(_:to:overwrite:)``.
    func prepareFile(_ input: String, to output: String, overwrite: Bool, options: ImagePreparationOptions)
        throws(ImageError) -> PreparedImage
    /// See ``ThumbnailMaker/thumbnail(ofFile:size:shownAs:)``.
    func thumbnail(ofFile path: String, size: Int, shownAs: String?) throws -> ThumbnailImage
    /// See ``ThumbnailMaker/thumbnail(of:size:)``.
    func thumbnail(of embedded: ExifThumbnail, size: Int) throws -> ThumbnailImage
    /// The size and EXIF facts of the image file at `path`, nil if its header cannot be read.
    func imageFacts(file path: String) -> FileFacts.ImageFacts?
    /// The size and EXIF facts of the image `source` holds; a failure of the source is thrown as it is.
    func imageFacts(source: any ByteSource, name: String) throws -> FileFacts.ImageFacts
}
