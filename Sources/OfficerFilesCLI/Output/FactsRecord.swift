import FileModel
import Preview

/// What `info` tells of a file, in JSON: schema `facts`.
struct FactsRecord: Encodable, Sendable {
    /// The file (a local path, `officer:/x`, `NAME:bucket/key`).
    var path: String
    var size: Int64
    var modified: JSONTime
    var mode: Int?
    /// The content type (`image/jpeg`), from the bytes (or the name when `typeFromName`).
    var mime: String
    var charset: String
    /// How the Officer web app shows it: `markdown`, `code`, `image`, `pdf`, `audio`, `video`, `transcoded-video`, `download`.
    var viewer: String
    var language: String?
    /// The server's actions that fit it (`ocr`, `transcribe`, …).
    var actions: [String]
    /// True when the type comes from the name (the bytes did not say).
    var typeFromName: Bool
    /// libmagic's description in words (`JPEG image data, …`).
    var description: String?
    var image: ImageFacts?
    var lines: Int?
    var firstLines: [String]?
    var pdfPages: Int?

    struct ImageFacts: Encodable, Sendable {
        var width: Int
        var height: Int
        var orientation: Int
        var camera: String?
        /// When the photo was taken, as the camera wrote it (its own clock, no time zone: `2024:01:02 10:00:00`).
        var taken: String?
        var hasGPS: Bool
        /// Decimal degrees, south negative.
        var latitude: Double?
        /// Decimal degrees, west negative.
        var longitude: Double?
    }

    init(_ facts: FileFacts, path: String) {
        self.path = path
        size = facts.size
        modified = JSONTime(facts.mtime)
        mode = facts.mode
        mime = facts.type.mime
        charset = facts.type.charset
        viewer = facts.type.viewer.rawValue
        language = facts.type.language
        actions = facts.type.actions.map(\.rawValue)
        typeFromName = facts.type.fromExtension
        description = facts.description
        image = facts.image.map {
            ImageFacts(
                width: $0.width, height: $0.height, orientation: $0.orientation, camera: $0.camera, taken: $0.taken,
                hasGPS: $0.hasGPS,
                latitude: $0.latitude, longitude: $0.longitude)
        }
        lines = facts.lines
        firstLines = facts.firstLines
        pdfPages = facts.pdfPages
    }

    /// The record as one JSON line, written directly (``JSONLineWriter``): what `jsonLine` would make of it.
    var jsonLine: String {
        var writer = JSONLineWriter()
        writer.add("actions", actions)
        writer.add("charset", charset)
        writer.add("description", description)
        writer.add("firstLines", firstLines)
        writer.add("image", present: image != nil) { fields in
            guard let image else { return }
            fields.add("camera", image.camera)
            fields.add("hasGPS", image.hasGPS)
            fields.add("height", image.height)
            fields.add("latitude", image.latitude)
            fields.add("longitude", image.longitude)
            fields.add("orientation", image.orientation)
            fields.add("taken", image.taken)
            fields.add("width", image.width)
        }
        writer.add("language", language)
        writer.add("lines", lines)
        writer.add("mime", mime)
        writer.add("mode", mode)
        writer.add("modified", modified.text)
        writer.add("path", path)
        writer.add("pdfPages", pdfPages)
        writer.add("size", size)
        writer.add("typeFromName", typeFromName)
        writer.add("viewer", viewer)
        return writer.line
    }
}
