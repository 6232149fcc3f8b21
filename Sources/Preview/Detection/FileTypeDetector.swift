import FileModel
import Foundation

/// MIME type and viewer detection: libmagic reads the first bytes, the extension settles what libmagic
/// leaves generic. Each thread uses its own libmagic cookie (they are not thread-safe).
public struct FileTypeDetector: Sendable {
    /// Bytes read from the start of a file: enough for libmagic's tests on every format we show.
    public static let prefixLength = 64 << 10

    /// Creates a detector.
    public init() {}

    /// Detects a local file from its first ``prefixLength`` bytes and its name.
    public func detect(file path: String) throws(MagicError) -> FileType {
        let prefix: Data
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            prefix = try handle.read(upToCount: Self.prefixLength) ?? Data()
        } catch {
            throw .detectionFailed(file: path, message: (error as NSError).localizedDescription)
        }
        return try detect(bytes: prefix, name: (path as NSString).lastPathComponent)
    }

    /// Detects from the first bytes of a file (a local prefix, or a remote one fetched with Range) and its name.
    public func detect(bytes: Data, name: String) throws(MagicError) -> FileType {
        let answer = try MagicCookie.forCurrentThread().describe(bytes: bytes)
        let parts = answer.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        let mime = parts.first ?? "application/octet-stream"
        let charset = parts.dropFirst().first { $0.hasPrefix("charset=") }.map { String($0.dropFirst("charset=".count)) } ?? "binary"
        return FileType(contentMIME: mime, charset: charset, fileName: name)
    }
}
