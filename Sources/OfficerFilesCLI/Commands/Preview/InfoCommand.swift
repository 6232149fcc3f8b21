import FileModel
import Foundation
import HTTP
import Officer
import Preview
import Transfer

/// `info`: what a file is and how the Officer viewer would show it, for local files and `officer:` paths
/// (the latter from the listing and the first 64 KiB, fetched with a Range request).
enum InfoCommand: Command {
    static let spec = CommandSpec(
        "info", summary: "show a file's type, viewer, AI actions and metadata (local or officer:)",
        positionals: [PositionalSpec("PATH", help: "local file or officer:/path", variadic: true)])

    struct Info: Encodable {
        var path: String
        var size: Int64
        var mtime: Double
        var mode: Int?
        var type: FileType
        var description: String?
        var image: ImageFacts?
        var lines: Int?
        var firstLines: [String]?
        var pdfPages: Int?
    }

    struct ImageFacts: Encodable {
        var width: Int
        var height: Int
        var orientation: Int
        var camera: String?
        var taken: String?
        var hasGPS: Bool
    }

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        // Local files are read on every core at once; remote ones one request at a time. Output keeps the
        // order of the arguments and is written in one piece per batch of results.
        let locals = parsed.positionals.filter { !RemotePath.isRemote($0) }
        let localResults = await ParallelRunner.map(locals, width: ProcessInfo.processInfo.activeProcessorCount) { path in
            Result { try local(path) }
        }
        let localInfo = Dictionary(zip(locals, localResults), uniquingKeysWith: { first, _ in first })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let output = OutputBuffer()
        try await BatchRunner.run(parsed.positionals, context: context) { argument in
            let info = RemotePath.isRemote(argument) ? try await remote(argument, context: context) : try localInfo[argument]!.get()
            if context.global.json {
                output.append(String(decoding: try encoder.encode(info), as: UTF8.self) + "\n")
            } else {
                output.append((output.isEmpty ? "" : "\n") + render(info) + "\n")
            }
            if output.count > 1 << 16 { context.console.printRaw(output.take()) }
        }
        context.console.printRaw(output.take())
    }

    static func local(_ path: String) throws -> Info {
        var status = stat()
        guard stat(path, &status) == 0 else { throw CLIError.localFile(path: path, message: String(cString: strerror(errno))) }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw CLIError.localFile(path: path, message: "not a regular file") }
        let detector = FileTypeDetector()
        let prefix = try detector.prefix(of: path)
        let type = try detector.detect(bytes: prefix, name: (path as NSString).lastPathComponent)
        var info = Info(
            path: path, size: Int64(status.st_size), mtime: Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9,
            mode: Int(status.st_mode & 0o7777), type: type, description: try describe(type, prefix, detector))
        if let (width, height) = plainImageSize(type.mime, prefix) {
            // PNG and GIF carry no EXIF: their headers give the size without loading libvips.
            info.image = ImageFacts(width: width, height: height, orientation: 1, camera: nil, taken: nil, hasGPS: false)
        } else if type.viewer == .image, let image = try? VipsImage(contentsOf: path, sequential: true) {
            // libvips renders EXIF strings as `value (value, ASCII, n components, n bytes)`: keep the value.
            func exif(_ field: String) -> String? {
                image.string(field).map { $0.components(separatedBy: " (")[0].trimmingCharacters(in: .whitespaces) }
            }
            info.image = ImageFacts(
                width: image.width, height: image.height, orientation: image.orientation, camera: exif("exif-ifd0-Model"),
                taken: exif("exif-ifd2-DateTimeOriginal"), hasGPS: image.hasGPS)
        }
        if type.viewer == .pdf { info.pdfPages = pdfPageCount(prefix) }
        if type.charset != "binary" {
            // A small file is all in the prefix already: no second read.
            if Int64(prefix.count) == info.size {
                info.lines = lineCount(prefix)
            } else if info.size <= 64 << 20 {
                info.lines = try? countLines(path)
            }
            info.firstLines = firstLines(prefix)
        }
        return info
    }

    static func remote(_ argument: String, context: CommandContext) async throws -> Info {
        let client = try context.client()
        let path = try context.remotePath(argument)
        let cache = try context.contentCache()
        let key = context.cacheKey(path, kind: CacheKey.Kind.preview, client: client)
        let size: Int64, mtime: Double, mode: Int?, prefix: Data
        if context.global.offline {
            guard let entry = try cache?.entry(for: key), let bytes = entry.contents() else {
                throw context.notCachedOffline(path, what: "preview")
            }
            size = Int64(entry.metadata["size"] ?? "") ?? 0
            mtime = Double(entry.metadata["mtime"] ?? "") ?? 0
            mode = entry.metadata["mode"].flatMap { Int($0) }
            prefix = bytes
        } else {
            let entry = try await client.stat(path)
            guard !entry.isDirectory else { throw CLIError.refused("\(path): is a folder", .refused) }
            (size, mtime, mode) = (entry.size, entry.mtime, entry.mode)
            // The stat above names the version, so an unchanged file's first bytes are not fetched again.
            let version = CacheKey.version(size: entry.size, modificationTime: Int64(entry.mtime * 1000))
            if let cached = try cache?.data(for: key, version: version) {
                prefix = cached
            } else if entry.size == 0 {
                // An empty file has no first byte to ask a range for (a server answers 416).
                prefix = Data()
            } else {
                var request = HTTPRequest(
                    url: client.rawURL(for: path),
                    sink: .memory(limit: FileTypeDetector.prefixLength + 1024), credential: client.credential)
                request.headers.add("Range", "bytes=0-\(FileTypeDetector.prefixLength - 1)")
                prefix = try await client.send(request, subject: path.description).body
                var metadata = ["size": String(entry.size), "mtime": String(entry.mtime)]
                if let mode = entry.mode { metadata["mode"] = String(mode) }
                _ = try? cache?.store(prefix, for: key, version: version, metadata: metadata)
            }
        }
        let detector = FileTypeDetector()
        let type = try detector.detect(bytes: prefix, name: path.name)
        return Info(
            path: path.description, size: size, mtime: mtime, mode: mode, type: type,
            description: try describe(type, prefix, detector), firstLines: type.charset == "binary" ? nil : firstLines(prefix))
    }

    /// libmagic's own words for audio and video (codec, bit rate, channels): what the seed asks of media.
    /// Other kinds are described by their MIME type, lines or dimensions; a second libmagic pass costs.
    static func describe(_ type: FileType, _ prefix: Data, _ detector: FileTypeDetector) throws -> String? {
        switch type.viewer {
        case .audio, .video, .transcodedVideo: try detector.describe(bytes: prefix)
        default: nil
        }
    }

    /// Up to three lines from the start, each cut at 120 characters.
    static func firstLines(_ prefix: Data) -> [String] {
        String(decoding: prefix.prefix(4096), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .prefix(3).map { String($0.prefix(120)) }.filter { !$0.isEmpty }
    }

    /// The page count when it is cheaply known: the root `/Type /Pages` dictionary's `/Count` in the first
    /// 64 KiB (where linearized and most small PDFs keep it). nil otherwise; no parsing of the whole file.
    static func pdfPageCount(_ prefix: Data) -> Int? {
        let text = String(decoding: prefix, as: Unicode.ASCII.self)
        var best: Int?
        var searchStart = text.startIndex
        while let range = text.range(of: "/Type /Pages", range: searchStart..<text.endIndex) ?? text.range(of: "/Type/Pages", range: searchStart..<text.endIndex) {
            // The dictionary around the match: up to its closing '>>'.
            let open = text[..<range.lowerBound].range(of: "<<", options: .backwards)?.lowerBound ?? range.lowerBound
            let close = text[range.upperBound...].range(of: ">>")?.upperBound ?? text.endIndex
            let dictionary = text[open..<close]
            if let count = dictionary.range(of: "/Count") {
                let digits = dictionary[count.upperBound...].drop { $0 == " " }.prefix { $0.isNumber }
                if let value = Int(digits) { best = max(best ?? 0, value) }  // the root holds the largest count
            }
            searchStart = range.upperBound
        }
        return best
    }

    /// Width and height from a PNG's IHDR or a GIF's logical screen descriptor.
    static func plainImageSize(_ mime: String, _ bytes: Data) -> (Int, Int)? {
        let b = [UInt8](bytes.prefix(32))
        switch mime {
        case "image/png" where b.count >= 24:
            func be32(_ at: Int) -> Int { Int(b[at]) << 24 | Int(b[at + 1]) << 16 | Int(b[at + 2]) << 8 | Int(b[at + 3]) }
            return (be32(16), be32(20))
        case "image/gif" where b.count >= 10:
            return (Int(b[6]) | Int(b[7]) << 8, Int(b[8]) | Int(b[9]) << 8)
        default:
            return nil
        }
    }

    /// Lines in text whose newlines number `newlines`: a last line without a newline counts too.
    static func lines(newlines: Int, lastByte: UInt8?) -> Int {
        guard let lastByte else { return 0 }
        return newlines + (lastByte == UInt8(ascii: "\n") ? 0 : 1)
    }

    static func newlineCount(_ bytes: Data) -> Int { bytes.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) } }

    static func lineCount(_ bytes: Data) -> Int { lines(newlines: newlineCount(bytes), lastByte: bytes.last) }

    static func countLines(_ path: String) throws -> Int {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var newlines = 0
        var last: UInt8?
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            newlines += newlineCount(chunk)
            last = chunk.last
        }
        return lines(newlines: newlines, lastByte: last)
    }

    static func render(_ info: Info) -> String {
        var lines = [
            "    Path: \(info.path)",
            "    Size: \(info.size) (\(ByteCountFormat.string(info.size)))",
            "Modified: \(EntryFormatter.date(info.mtime)) UTC",
            "    MIME: \(info.type.mime); charset=\(info.type.charset)" + (info.type.fromExtension ? " (from the extension)" : ""),
            "  Viewer: \(info.type.viewer.rawValue)" + (info.type.language.map { " (\($0))" } ?? ""),
            " Actions: " + (info.type.actions.isEmpty ? "none" : info.type.actions.map(\.rawValue).joined(separator: ", ")),
        ]
        if let description = info.description { lines.append(" Content: \(description)") }
        if let mode = info.mode { lines.insert("    Mode: \(String(mode, radix: 8))", at: 3) }
        if let image = info.image {
            var text = "   Image: \(image.width)×\(image.height)"
            if image.orientation != 1 { text += ", EXIF orientation \(image.orientation)" }
            if let camera = image.camera { text += ", camera \(camera)" }
            if let taken = image.taken { text += ", taken \(taken)" }
            text += image.hasGPS ? ", GPS position" : ", no GPS"
            lines.append(text)
        }
        if let count = info.lines { lines.append("    Text: \(count) line" + (count == 1 ? "" : "s")) }
        if let pages = info.pdfPages { lines.append("     PDF: \(pages) page" + (pages == 1 ? "" : "s")) }
        for (index, line) in (info.firstLines ?? []).enumerated() { lines.append((index == 0 ? "   Start: " : "          ") + line) }
        return lines.joined(separator: "\n")
    }
}

/// Output collected between writes.
final class OutputBuffer {
    private var text = ""
    private var written = false
    var count: Int { text.utf8.count }
    var isEmpty: Bool { text.isEmpty && !written }
    func append(_ more: String) { text += more }
    func take() -> String {
        defer {
            written = written || !text.isEmpty
            text = ""
        }
        return text
    }
}
