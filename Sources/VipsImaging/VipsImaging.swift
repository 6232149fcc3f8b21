import Foundation
import Preview

/// libvips behind Preview's ``ImagePreparing``: a Linux plug-in.
package struct VipsImaging: ImagePreparing {
    /// Creates the plug-in.
    package init() {}

    package var libraryVersion: String { "libvips \(VipsRuntime.libraryVersion)" }

    package var canWriteGIF: Bool { VipsImage.canWriteGIF }

    package func mayGoUpUnchanged(_ input: String, options: ImagePreparationOptions) -> Bool {
        VipsPreparer(options: options).mayGoUpUnchanged(input)
    }

    package func outputFormat(for input: String, named target: String?, options: ImagePreparationOptions)
        throws(ImageError) -> ImageOutputFormat
    {
        try VipsPreparer(options: options).outputFormat(for: input, named: target)
    }

    package func prepare(_ input: String, to output: String, named name: String?, options: ImagePreparationOptions)
        throws(ImageError) -> PreparedImage
    {
        try VipsPreparer(options: options).prepare(input, to: output, named: name)
    }

    package func prepareFile(_ input: String, to output: String, overwrite: Bool, options: ImagePreparationOptions)
        throws(ImageError) -> PreparedImage
    {
        try VipsPreparer(options: options).prepareFile(input, to: output, overwrite: overwrite)
    }

    package func thumbnail(ofFile path: String, size: Int, shownAs: String?) throws -> ThumbnailImage {
        try VipsThumbnails.thumbnail(ofFile: path, size: size, shownAs: shownAs)
    }

    package func thumbnail(of embedded: ExifThumbnail, size: Int) throws -> ThumbnailImage {
        try VipsThumbnails.thumbnail(of: embedded, size: size)
    }

    package func imageFacts(file path: String) -> FileFacts.ImageFacts? {
        (try? VipsImage(contentsOf: path, sequential: true)).map(Self.facts)
    }

    package func imageFacts(source: any ByteSource, name: String) throws -> FileFacts.ImageFacts {
        Self.facts(try VipsImage(source: source, name: name))
    }
}
