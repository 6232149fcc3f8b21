/// libvips' failures in the user's terms: what the file is not, never the library's name or its loader's.
extension VipsError {
    /// One line naming the file: "not an image officer-files reads" or "damaged or truncated JPEG".
    package var wording: String {
        switch self {
        case .initializationFailed: "the image library could not start"
        case .loadFailed(let file, let message):
            Self.isUnknownFormat(message)
                ? "\(file): not an image officer-files reads"
                : "\(file): damaged or truncated \(Self.format(in: message))"
        case .operationFailed(_, let message):
            "the image could not be processed: damaged or truncated \(Self.format(in: message))"
        case .saveFailed(let file, _): "\(file): cannot write the image"
        }
    }

    /// The same failure naming the file `name`.
    package func naming(_ name: String) -> VipsError {
        switch self {
        case .loadFailed(_, let message): .loadFailed(file: name, message: message)
        case .saveFailed(_, let message): .saveFailed(file: name, message: message)
        default: self
        }
    }

    /// libvips says a file is in no format it knows in these words (its loaders' own messages).
    static func isUnknownFormat(_ message: String) -> Bool {
        message.contains("not a known file format") || message.contains("is not in a known format")
    }

    /// True when a failed save failed at writing (the disk says why), not at decoding its input: libvips' own
    /// "unable to write to target" comes as well when a truncated input stopped the writer.
    package static func isWriteProblem(_ message: String) -> Bool {
        [
            "No space", "No such file", "Permission denied", "Read-only file system", "Disk quota", "File too large",
            "Input/output error",
        ].contains { message.contains($0) }
    }

    /// libvips' `message` about the file at `path`, led by the format the file's own first bytes show
    /// (``ImageSignature``), which the wording names before any format the message mentions.
    package static func message(_ message: String, about path: String) -> String {
        guard !message.hasPrefix("["), let format = ImageSignature.format(ofFileAt: path) else { return message }
        return "[\(format)] " + message
    }

    /// The image format a libvips message is about, from the loader that wrote it (`VipsJpeg: …`).
    static func format(in message: String) -> String {
        if message.hasPrefix("["), let end = message.firstIndex(of: "]") {
            return String(message[message.index(after: message.startIndex)..<end])
        }
        let lowered = message.lowercased()
        let formats = [
            ("jpeg", "JPEG"), ("jpg", "JPEG"), ("png", "PNG"), ("webp", "WebP"), ("gif", "GIF"), ("tiff", "TIFF"),
            ("heif", "HEIF"), ("svg", "SVG"),
        ]
        return formats.first { lowered.contains($0.0) }?.1 ?? "image"
    }
}

/// Image preparation's failures in the user's terms.
extension ImageError {
    /// The detail of ``unsupported(file:detail:)`` for a file of no bytes.
    package static let emptyFileDetail = "empty file"

    /// One line naming the file, without libvips' own message (``description`` keeps it, for `-v`).
    package var wording: String {
        switch self {
        case .undecodable(let file, let message):
            VipsError.isUnknownFormat(message)
                ? "\(file): not an image officer-files reads"
                : "\(file): damaged or truncated \(VipsError.format(in: message))"
        case .unsupported(let file, let detail):
            switch detail {
            case "unknown format": "\(file): not an image officer-files reads"
            case Self.emptyFileDetail: "\(file): is empty, not an image"
            default: "\(file): not an image officer-files prepares (\(detail))"
            }
        case .wouldSendPosition(let reason): "\(reason.wording); not uploaded as it is: it may hold a GPS position"
        default: description
        }
    }
}
