import FileModel
import Foundation

/// MIME type and viewer detection: the installed ``FileTypeDetecting`` (libmagic on Linux) reads the first bytes,
/// the extension settles what it leaves generic.
package struct FileTypeDetector: Sendable {
    /// The detection plug-in, none until a program installs one.
    package static let plugin = PluginSlot<(any FileTypeDetecting)?>(nil)

    /// The installed plug-in, or the failure to report without one.
    package static func installed() throws(MagicError) -> any FileTypeDetecting {
        guard let detecting = plugin.value else { throw .notAvailable }
        return detecting
    }

    /// Bytes read from the start of a file: enough for libmagic's tests on every format we show.
    package static let prefixLength = 64 << 10

    /// Creates a detector.
    package init() {}

    /// Detects a local file from its first ``prefixLength`` bytes and its name.
    package func detect(file path: String) throws(MagicError) -> FileType {
        try detect(bytes: try prefix(of: path), name: (path as NSString).lastPathComponent)
    }

    /// libmagic's description of the first bytes, as `file(1)` prints it (codec, bit rate, dimensions, …).
    package func describe(bytes: Data) throws(MagicError) -> String {
        try Self.installed().describe(bytes: bytes, mime: false)
    }

    /// The first bytes of a local file (up to ``prefixLength``).
    package func prefix(of path: String) throws(MagicError) -> Data {
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            return try handle.read(upToCount: Self.prefixLength) ?? Data()
        } catch {
            throw .detectionFailed(file: path, message: (error as NSError).localizedDescription)
        }
    }

    /// Detects from the first bytes of a file (a local prefix, or a remote one fetched with Range) and its name.
    package func detect(bytes: Data, name: String) throws(MagicError) -> FileType {
        let answer = try Self.installed().describe(bytes: bytes, mime: true)
        let parts = answer.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        let mime = parts.first ?? "application/octet-stream"
        let charset =
            parts.dropFirst().first { $0.hasPrefix("charset=") }.map { String($0.dropFirst("charset=".count)) }
            ?? "binary"
        return FileType(contentMIME: mime, charset: charset, fileName: name)
    }
}
