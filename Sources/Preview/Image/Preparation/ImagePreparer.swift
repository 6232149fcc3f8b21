import FileModel
import Foundation

/// Makes images ready for upload through the installed ``ImagePreparing`` plug-in (libvips on Linux): header
/// checked first (type, pixel limit), then one shrink-on-load thumbnail (never upsized, EXIF orientation applied,
/// sRGB), metadata stripped unless kept, written atomically. Thread-safe.
package struct ImagePreparer: Sendable {
    /// The image plug-in, none until a program installs one.
    package static let plugin = PluginSlot<(any ImagePreparing)?>(nil)

    /// The settings.
    package var options: ImagePreparationOptions

    /// Creates a preparer.
    package init(options: ImagePreparationOptions = ImagePreparationOptions()) {
        self.options = options
    }

    /// The installed plug-in, or the failure to report for `file` without one.
    package static func installed(for file: String) throws(ImageError) -> any ImagePreparing {
        guard let preparing = plugin.value else { throw .notAvailable(file: file) }
        return preparing
    }

    /// Whether `input`, which could not be prepared, may go up as it is without sending the GPS position preparing
    /// strips: always when metadata is kept; else a file in a format this prepares only when its header shows no
    /// position (a header that cannot be read may hide one), a file of any other kind (not an image, an SVG)
    /// holding none of a photo's. Without a plug-in, a JPEG that holds no position.
    package func mayGoUpUnchanged(_ input: String) -> Bool {
        if options.keepMetadata { return true }
        if let plugin = Self.plugin.value { return plugin.mayGoUpUnchanged(input, options: options) }
        guard let data = FileManager.default.contents(atPath: input), JPEGPositionRemover.isJPEG(data) else {
            return false
        }
        return !JPEGPositionRemover.holdsPosition(data)
    }

    /// The output format for an input, after checking it is a supported image: named by `target`'s extension
    /// when it has one (a conflict with an explicit `--format` is refused), else by the choice and the input's
    /// name (``ImageFormatChoice/outputFormat(forName:)``).
    package func outputFormat(for input: String, named target: String? = nil) throws(ImageError) -> ImageOutputFormat {
        guard Self.plugin.value == nil else {
            return try Self.installed(for: input).outputFormat(for: input, named: target, options: options)
        }
        try Self.portableJPEG(input)
        return .jpeg
    }

    /// Prepares `input` into `output`, in the format the extension of `name` (default: `output`) names, or
    /// ``outputFormat(for:named:)``'s.
    package func prepare(_ input: String, to output: String, named name: String? = nil) throws(ImageError)
        -> PreparedImage
    {
        guard Self.plugin.value == nil else {
            return try Self.installed(for: input).prepare(input, to: output, named: name, options: options)
        }
        return try Self.withoutPosition(input, to: output)
    }

    /// Without a plug-in: a JPEG whose options ask for nothing but its metadata gone (its format kept) can still be
    /// prepared, its position removed portably (``JPEGPositionRemover``); anything else is refused by name.
    @discardableResult
    static func portableJPEG(_ input: String) throws(ImageError) -> Data {
        guard let data = FileManager.default.contents(atPath: input) else {
            throw .unreadable(file: input, message: "cannot be read")
        }
        guard JPEGPositionRemover.isJPEG(data) else { throw .notAvailable(file: input) }
        return data
    }

    /// The JPEG `input` written to `output` without its position, at its size (no image library resizes it).
    package static func withoutPosition(_ input: String, to output: String) throws(ImageError) -> PreparedImage {
        let outcome = try JPEGPositionRemover.removingPosition(from: try portableJPEG(input), file: input)
        do {
            try outcome.data.write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw .writeFailed(file: output, message: error.localizedDescription)
        }
        return PreparedImage(
            path: output, format: .jpeg, width: outcome.width, height: outcome.height,
            bytes: Int64(outcome.data.count), usedOriginal: false)
    }

    /// Prepares `input` into the file `output` as a command that writes files must: the input is never
    /// overwritten (not even with `overwrite`), an existing output only with `overwrite`, the folder must exist,
    /// and the output appears whole or not at all. When the original is already best, the output is a copy of it.
    package func prepareFile(_ input: String, to output: String, overwrite: Bool) throws(ImageError) -> PreparedImage {
        try Self.installed(for: input).prepareFile(input, to: output, overwrite: overwrite, options: options)
    }
}
