import FileModel
import Foundation
import Platform

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
        try detect(bytes: try prefix(of: path), name: String(FileName.last(ofPath: path)))
    }

    /// libmagic's description of the first bytes, as `file(1)` prints it (codec, bit rate, dimensions, …).
    package func describe(bytes: Data) throws(MagicError) -> String {
        try Self.installed().describe(bytes: bytes, mime: false)
    }

    /// The first bytes of a local file (up to ``prefixLength``).
    package func prefix(of path: String) throws(MagicError) -> Data {
        switch Self.readPrefix(path) {
        case .success(let bytes): return bytes
        case .failure(let error): throw .detectionFailed(file: path, message: error.description)
        }
    }

    /// The first ``prefixLength`` bytes of a local file (all of a shorter one), or why they could not be read:
    /// one open and one read into a buffer of the call's own, the bytes copied out at their length (`info` reads
    /// thousands of small files; Foundation's file handle cost more than libmagic's look at a small one).
    package static func readPrefix(_ path: String) -> Result<Data, SystemCalls.Errno> {
        let file: OpenFile
        do { file = try OpenFile(path, O_RDONLY) } catch { return .failure(error) }
        defer { withExtendedLifetime(file) {} }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: prefixLength, alignment: 16)
        defer { buffer.deallocate() }
        return SystemCalls.readFully(file.descriptor, into: buffer).map { Data(bytes: buffer.baseAddress!, count: $0) }
    }

    /// Detects from the first bytes of a file (a local prefix, or a remote one fetched with Range) and its name.
    package func detect(bytes: Data, name: String) throws(MagicError) -> FileType {
        let (mime, charset) = Self.mimeAndCharset(try Self.installed().describe(bytes: bytes, mime: true))
        return FileType(contentMIME: mime, charset: charset, fileName: name)
    }

    /// The type and charset of an answer such as `text/plain; charset=us-ascii` (no charset: `binary`).
    static func mimeAndCharset(_ answer: String) -> (mime: String, charset: String) {
        // Neither a type nor a parameter holds a space: the ones around them are dropped with Foundation's
        // trimming, which cost more than the rest of reading a small file's facts.
        let parts = answer.split(separator: ";").map { $0.filter { !$0.isWhitespace } }
        let charset = parts.dropFirst().first { $0.hasPrefix("charset=") }?.dropFirst("charset=".count)
        return (parts.first ?? "application/octet-stream", charset.map(String.init) ?? "binary")
    }
}
