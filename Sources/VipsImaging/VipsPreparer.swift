import FileModel
import Foundation
import Preview

/// Makes images ready for upload with libvips: header checked first (type, pixel limit), then one
/// shrink-on-load thumbnail (never upsized, EXIF orientation applied, sRGB), metadata stripped unless
/// kept, written atomically. Thread-safe; libvips parallelizes each image internally too.
struct VipsPreparer: Sendable {
    /// The settings.
    var options: ImagePreparationOptions

    /// Creates a preparer.
    init(options: ImagePreparationOptions) {
        self.options = options
    }

    /// What libmagic calls the formats this prepares.
    private static let preparedTypes: Set<String> = [
        "image/jpeg", "image/png", "image/webp", "image/heic", "image/heif", "image/avif", "image/gif", "image/tiff",
    ]

    /// Whether `input`, which could not be prepared, may go up as it is without sending the GPS position preparing
    /// strips (asked only when metadata is not kept): a file in a format this prepares only when its header shows no
    /// position (``VipsImage/mayHoldPosition``; a header that cannot be read may hide one), a file of any other
    /// kind (not an image, an SVG) holding none of a photo's.
    func mayGoUpUnchanged(_ input: String) -> Bool {
        guard let type = try? FileTypeDetector().detect(file: input) else { return false }
        guard Self.preparedTypes.contains(type.mime) else { return true }
        guard let header = try? VipsImage(contentsOf: input, sequential: true) else { return false }
        return !header.mayHoldPosition
    }

    private static let loaders: [(prefix: String, format: ImageOutputFormat?)] = [
        ("jpegload", .jpeg), ("pngload", .png), ("webpload", .webp), ("heifload", nil), ("gifload", .gif),
        ("tiffload", .tiff),
    ]

    /// The output format for an input, after checking it is a supported image: named by `target`'s extension
    /// when it has one (a conflict with an explicit `--format` is refused), else by the choice and the input's
    /// name (``ImageFormatChoice/outputFormat(forName:)``).
    func outputFormat(for input: String, named target: String? = nil) throws(ImageError) -> ImageOutputFormat {
        try inspect(input, named: target).output
    }

    /// Prepares `input` into `output`, in the format the extension of `name` (default: `output`) names, or
    /// ``outputFormat(for:named:)``'s.
    func prepare(_ input: String, to output: String, named name: String? = nil) throws(ImageError)
        -> PreparedImage
    {
        guard (1...100).contains(options.quality) else {
            throw .invalidOption("quality must be 1–100, not \(options.quality)")
        }
        guard options.maxEdge >= 16 else {
            throw .invalidOption("the longest edge must be at least 16 px, not \(options.maxEdge)")
        }
        let facts = try inspect(input, named: name ?? output)
        let thumbnail: VipsImage
        do {
            thumbnail = try VipsImage.thumbnail(
                of: input, maxEdge: options.maxEdge, exportSRGB: facts.needsColourManagement)
        } catch {
            throw .undecodable(file: input, message: VipsError.message(Self.message(error), about: input))
        }
        let temp = TemporaryNames.path(beside: output, suffix: ".officer-tmp-\(getpid())", hidden: false)
        do {
            let strip = !options.keepMetadata
            switch facts.output {
            case .jpeg:
                try thumbnail.flattenedOntoWhite().writeJPEG(to: temp, quality: options.quality, stripMetadata: strip)
            case .png: try thumbnail.writePNG8(to: temp, stripMetadata: strip)
            case .webp: try thumbnail.writeWebP(to: temp, quality: options.quality, stripMetadata: strip)
            case .tiff: try thumbnail.writeTIFF(to: temp, stripMetadata: strip)
            case .gif: try thumbnail.writeGIF(to: temp, stripMetadata: strip)
            }
        } catch {
            unlink(temp)
            // A decode error surfaces only when pixels are read, that is while saving.
            if case .saveFailed(_, let message) = error, !VipsError.isWriteProblem(message) {
                throw .undecodable(file: input, message: VipsError.message(message, about: input))
            }
            throw .writeFailed(file: output, message: Self.message(error))
        }
        let preparedSize = Self.size(temp)
        if facts.canStayAsIs && preparedSize >= facts.size {
            unlink(temp)
            return PreparedImage(
                path: input, format: facts.output, width: facts.width, height: facts.height, bytes: facts.size,
                usedOriginal: true)
        }
        guard rename(temp, output) == 0 else {
            let message = String(cString: strerror(errno))
            unlink(temp)
            throw .writeFailed(file: output, message: message)
        }
        return PreparedImage(
            path: output, format: facts.output, width: thumbnail.width, height: thumbnail.height, bytes: preparedSize,
            usedOriginal: false)
    }

    /// Prepares `input` into the file `output` as a command that writes files must: the input is never
    /// overwritten (not even with `overwrite`), an existing output only with `overwrite`, the folder must exist,
    /// and the output appears whole or not at all (temp file, then link or rename). When the original is already
    /// best, the output is a copy of it, written the same way.
    func prepareFile(_ input: String, to output: String, overwrite: Bool) throws(ImageError) -> PreparedImage {
        var inputInfo = stat()
        guard stat(input, &inputInfo) == 0 else {
            throw .unreadable(file: input, message: String(cString: strerror(errno)))
        }
        var outputInfo = stat()
        if stat(output, &outputInfo) == 0 {
            if outputInfo.st_dev == inputInfo.st_dev && outputInfo.st_ino == inputInfo.st_ino {
                throw .outputIsInput(file: output)
            }
            if !overwrite { throw .outputExists(file: output) }
        }
        let folder = (output as NSString).deletingLastPathComponent
        var folderInfo = stat()
        guard stat(folder.isEmpty ? "." : folder, &folderInfo) == 0, folderInfo.st_mode & S_IFMT == S_IFDIR else {
            throw .writeFailed(file: output, message: "the folder \(folder.isEmpty ? "." : folder) does not exist")
        }
        let staged = TemporaryNames.path(beside: output, suffix: ".officer-out-\(getpid())", hidden: false)
        unlink(staged)
        var image = try prepare(input, to: staged, named: output)
        if image.usedOriginal {
            do {
                try FileManager.default.copyItem(atPath: input, toPath: staged)
            } catch {
                unlink(staged)
                throw .writeFailed(file: output, message: "cannot copy the original: \(error.localizedDescription)")
            }
        }
        // Without overwrite, link() fails rather than replace a file that appeared meanwhile.
        let placed = overwrite ? rename(staged, output) == 0 : link(staged, output) == 0
        let failure = errno
        if !overwrite || !placed { unlink(staged) }
        guard placed else {
            throw failure == EEXIST
                ? .outputExists(file: output) : .writeFailed(file: output, message: String(cString: strerror(failure)))
        }
        image.path = output
        return image
    }

    private struct Facts {
        var output: ImageOutputFormat
        var width: Int
        var height: Int
        var size: Int64
        var canStayAsIs: Bool
        var needsColourManagement: Bool
    }

    /// Reads only the header: type, dimensions, alpha, orientation, metadata.
    private func inspect(_ input: String, named target: String?) throws(ImageError) -> Facts {
        guard access(input, R_OK) == 0 else {
            throw .unreadable(file: input, message: String(cString: strerror(errno)))
        }
        // What the bytes are, before any loader runs: a PDF or an SVG is not an image we prepare, and saying so
        // beats libvips' "operation is blocked" for its untrusted loaders.
        if Self.size(input) == 0 { throw .unsupported(file: input, detail: ImageError.emptyFileDetail) }
        if let type = try? FileTypeDetector().detect(file: input),
            !type.mime.hasPrefix("image/") || type.mime == "image/svg+xml"
        {
            throw .unsupported(file: input, detail: type.mime)
        }
        let header: VipsImage
        do {
            header = try VipsImage(contentsOf: input, sequential: true)
        } catch {
            let message = Self.message(error)
            if message.contains("not a known file format") || message.contains("is not in a known format") {
                throw .unsupported(file: input, detail: "unknown format")
            }
            throw .undecodable(file: input, message: VipsError.message(message, about: input))
        }
        let loader = header.loader ?? "unknown"
        guard let known = Self.loaders.first(where: { loader.hasPrefix($0.prefix) }) else {
            throw .unsupported(file: input, detail: loader)
        }
        let (width, height) = (header.width, header.height)
        guard width * height <= options.pixelLimit else {
            throw .tooManyPixels(file: input, width: width, height: height, limit: options.pixelLimit)
        }
        let output: ImageOutputFormat
        if let target, ["heic", "heif", "avif"].contains((target as NSString).pathExtension.lowercased()) {
            throw .invalidOption("\(target): prepared images are written as JPEG, PNG, WebP, TIFF or GIF; name it .jpg")
        }
        if let target, let named = ImageOutputFormat(fileName: target) {
            // The name and the bytes agree: the output's extension says the format.
            if options.format != .keep, options.format.outputFormat(forName: target) != named {
                throw .invalidOption(
                    "\(target): its name says \(named.rawValue.uppercased()), but the format asked for is \(options.format.rawValue.uppercased()); name it ."
                        + options.format.outputFormat(forName: target).fileExtension + " or keep the image's own format"
                )
            }
            guard named.isWritable else {
                throw .invalidOption("\(target): this libvips cannot write \(named.rawValue.uppercased())")
            }
            output = named
        } else {
            output = options.format.outputFormat(forName: input)
        }
        let fits = max(width, height) <= options.maxEdge
        let canStayAsIs =
            fits && known.format == output && header.orientation == 1 && !header.isCMYK
            && (options.keepMetadata || !header.hasMetadata)
        return Facts(
            output: output, width: width, height: height, size: Self.size(input), canStayAsIs: canStayAsIs,
            needsColourManagement: header.isCMYK || header.hasColourProfile)
    }

    private static func size(_ path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }

    private static func message(_ error: VipsError) -> String {
        switch error {
        case .loadFailed(_, let message), .saveFailed(_, let message), .operationFailed(_, let message),
            .initializationFailed(let message):
            message
        }
    }
}
