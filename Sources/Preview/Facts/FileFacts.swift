import FileModel
import Foundation
import Platform

/// What a file is and what it holds, cheaply: its type and viewer (libmagic and the name), libmagic's own words
/// for media, an image's size and EXIF facts, a PDF's page count, a text's lines and first lines. For a local
/// file (`local(_:)`) or from the first bytes of any file (`init(prefix:name:size:modificationTime:mode:)`,
/// what the Officer layer fetches with a Range request).
public struct FileFacts: Sendable, Codable, Equatable {
    /// The path as given (a local path, or `officer:/…`).
    public var path: String
    /// Bytes.
    public var size: Int64
    /// Seconds since 1970.
    public var mtime: Double
    /// Permission bits, when known.
    public var mode: Int?
    /// MIME type, charset, viewer and actions.
    public var type: FileType
    /// libmagic's description of audio and video (codec, bit rate, channels).
    public var description: String?
    /// Image facts, for images.
    public var image: ImageFacts?
    /// Lines of a text file (local files up to 64 MiB, or one read whole).
    public var lines: Int?
    /// Up to three lines from the start of a text, each cut at 120 characters.
    public var firstLines: [String]?
    /// A PDF's page count, when its first or last 64 KiB tell it.
    public var pdfPages: Int?

    /// An image's size and the EXIF facts a viewer uses.
    public struct ImageFacts: Sendable, Codable, Equatable {
        /// Pixels across.
        public var width: Int
        /// Pixels down.
        public var height: Int
        /// EXIF orientation (1: as stored).
        public var orientation: Int
        /// The camera model.
        public var camera: String?
        /// When it was taken, as EXIF writes it.
        public var taken: String?
        /// Whether it carries a GPS position.
        public var hasGPS: Bool
        /// The GPS latitude in degrees (south negative), when the position can be read.
        public var latitude: Double?
        /// The GPS longitude in degrees (west negative).
        public var longitude: Double?

        /// Facts as given.
        package init(
            width: Int, height: Int, orientation: Int, camera: String?, taken: String?, hasGPS: Bool,
            latitude: Double? = nil,
            longitude: Double? = nil
        ) {
            self.latitude = latitude
            self.longitude = longitude
            self.width = width
            self.height = height
            self.orientation = orientation
            self.camera = camera
            self.taken = taken
            self.hasGPS = hasGPS
        }
    }

    /// The facts of the first bytes of a file (up to ``FileTypeDetector/prefixLength``) named `name`.
    package init(prefix: Data, name: String, path: String, size: Int64, modificationTime: Double, mode: Int?)
        throws(MagicError)
    {
        let detector = FileTypeDetector()
        let type = try detector.detect(bytes: prefix, name: name)
        self.path = path
        self.size = size
        mtime = modificationTime
        self.mode = mode
        self.type = type
        description = try Self.describe(type, prefix, detector)
        if type.mime == "image/jpeg" {
            image = Self.jpegImageFacts(prefix)  // size and EXIF from the segments before the frame
        } else if let (width, height) = Self.plainImageSize(type.mime, prefix) {
            // The headers give the size without loading libvips.
            image = ImageFacts(width: width, height: height, orientation: 1, camera: nil, taken: nil, hasGPS: false)
        }
        if type.viewer == .pdf { pdfPages = Self.pdfPageCount(prefix) }
        if type.charset != "binary" {
            if Int64(prefix.count) == size { lines = Self.lineCount(prefix) }
            firstLines = Self.firstLines(prefix)
        }
    }

    /// The facts of a local regular file: its first bytes, then libvips for a JPEG/HEIC/WebP/TIFF's EXIF and the
    /// whole text for its line count (up to 64 MiB).
    package static func local(_ path: String) throws(FileFactsError) -> FileFacts {
        var status = stat()
        guard stat(path, &status) == 0 else { throw .unreadable(path: path, message: String(cString: strerror(errno))) }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw .notAFile(path: path) }
        let prefix: Data
        switch FileTypeDetector.readPrefix(path) {
        case .success(let bytes): prefix = bytes
        case .failure(let error): throw .unreadable(path: path, message: error.description)
        }
        var facts: FileFacts
        do {
            facts = try FileFacts(
                prefix: prefix, name: String(FileName.last(ofPath: path)), path: path, size: Int64(status.st_size),
                modificationTime: status.modificationSeconds,
                mode: Int(status.st_mode & 0o7777))
        } catch {
            throw .unreadable(path: path, message: "\(error)")
        }
        // Headers give PNG and GIF sizes (they carry no EXIF); other images are opened for their EXIF facts.
        if facts.wantsImageHeader, let image = ImagePreparer.plugin.value?.imageFacts(file: path) {
            facts.image = image
        }
        if facts.type.charset != "binary", facts.lines == nil, facts.size <= 64 << 20 {
            facts.lines = try? countLines(path)
        }
        return facts
    }

    /// The facts of a file read through `source` (a remote file read by ranges): its first bytes, then only what
    /// the format keeps elsewhere — an image's header and EXIF through libvips (a HEIC's `meta` box may sit after
    /// its media data, and the source seeks there), a PDF's page count from its last 64 KiB when the start does
    /// not tell it. A failure of the source is thrown as it is.
    package static func reading(
        _ source: any ByteSource, name: String, path: String, modificationTime: Double, mode: Int?
    ) throws -> FileFacts {
        let prefix = try source.bytes(at: 0, length: FileTypeDetector.prefixLength)
        var facts = try FileFacts(
            prefix: prefix, name: name, path: path, size: source.size, modificationTime: modificationTime, mode: mode)
        if ["image/heic", "image/heif", "image/avif"].contains(facts.type.mime), let heif = try HEIFMeta.read(source) {
            // Read from the box structure: libheif would read the media data on the way (the whole photo).
            let turned = heif.quarterTurns % 2 == 1
            facts.image = ImageFacts(
                width: turned ? heif.height : heif.width, height: turned ? heif.width : heif.height, orientation: 1,
                camera: heif.exif?.camera, taken: heif.exif?.taken, hasGPS: heif.exif?.hasGPS ?? false,
                latitude: heif.exif?.latitude, longitude: heif.exif?.longitude)
        } else if facts.wantsImageHeader, let preparing = ImagePreparer.plugin.value {
            facts.image = try preparing.imageFacts(source: source, name: path)
        }
        if facts.type.viewer == .pdf, facts.pdfPages == nil, source.size > Int64(prefix.count) {
            let tailStart = max(Int64(prefix.count), source.size - Int64(FileTypeDetector.prefixLength))
            facts.pdfPages = Self.pdfPageCount(try source.bytes(at: tailStart, length: Int(source.size - tailStart)))
        }
        return facts
    }

    /// Images whose size and EXIF facts need their header read by libvips: PNG and GIF sizes come from the
    /// first bytes, and they carry no EXIF; a JPEG's come from there too when its frame header is among them.
    var wantsImageHeader: Bool {
        type.viewer == .image && !["image/png", "image/gif", "image/svg+xml"].contains(type.mime)
            && !(type.mime == "image/jpeg" && image != nil)
    }

    /// libmagic's own words for audio and video (codec, bit rate, channels): what a media viewer shows. Other
    /// kinds are described by their MIME type, lines or dimensions; a second libmagic pass costs.
    static func describe(_ type: FileType, _ prefix: Data, _ detector: FileTypeDetector) throws(MagicError) -> String? {
        switch type.viewer {
        case .audio, .video, .transcodedVideo: try detector.describe(bytes: prefix)
        default: nil
        }
    }
}

/// Why a local file's facts could not be read.
package enum FileFactsError: Error, Equatable, Sendable, CustomStringConvertible, CategorizedError {
    /// It could not be opened or read.
    case unreadable(path: String, message: String)
    /// It is a folder, a device or a socket, not a regular file.
    case notAFile(path: String)

    /// A one-line message naming the file.
    package var description: String {
        switch self {
        case .unreadable(let path, let message): "\(path): \(message)"
        case .notAFile(let path): "\(path): not a regular file"
        }
    }

    /// Both are local-file problems.
    package var category: ErrorCategory { .localFile }
}
