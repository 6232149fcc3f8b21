import Foundation
import HTTP

/// Identifies a local file's version cheaply: path, size, mtime, and hashes of its first and last MiB.
/// A resumed upload continues only if the fingerprint is unchanged.
public struct FileFingerprint: Sendable, Equatable, Codable {
    /// Absolute path.
    public var path: String
    /// Size in bytes.
    public var size: Int64
    /// Modification time in nanoseconds since 1970.
    public var mtimeNanoseconds: Int64
    /// SHA-256 of the first MiB (hex).
    public var headHash: String
    /// SHA-256 of the last MiB (hex).
    public var tailHash: String

    /// Reads the fingerprint of a regular file.
    public init(path: String) throws(UploadError) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .localFile(path: path, message: String(cString: strerror(errno))) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .localFile(path: path, message: "not a regular file") }
        self.path = path
        size = Int64(info.st_size)
        mtimeNanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        let window: Int64 = 1 << 20
        do {
            let head = SHA256Hasher()
            try head.update(file: path, offset: 0, length: min(window, size))
            headHash = head.finalizeHex()
            let tail = SHA256Hasher()
            try tail.update(file: path, offset: max(0, size - window), length: min(window, size))
            tailHash = tail.finalizeHex()
        } catch {
            throw .localFile(path: path, message: error.detailWithoutPath)
        }
    }

    /// Modification time in seconds, as sent in the `mtime` metadata.
    public var mtime: Double { Double(mtimeNanoseconds) / 1e9 }
}
