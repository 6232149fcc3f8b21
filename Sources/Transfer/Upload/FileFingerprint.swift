import FileModel
import Foundation
import HTTP

/// Identifies a local file's version cheaply: path, size, mtime, and hashes of its first and last MiB.
/// A resumed upload continues only if the fingerprint is unchanged.
package struct FileFingerprint: Sendable, Equatable, Codable {
    /// Absolute path.
    package var path: String
    /// Size in bytes.
    package var size: Int64
    /// Modification time, to the nanosecond, for any time a file system holds.
    package var modificationTime: FileTime
    /// SHA-256 of the first MiB (hex).
    package var headHash: String
    /// SHA-256 of the last MiB (hex).
    package var tailHash: String

    /// Reads the fingerprint of a regular file.
    package init(path: String) throws(UploadError) {
        let identity = try FileIdentity(path: path)
        guard identity.isRegularFile else { throw .localFile(path: path, message: "not a regular file") }
        // Absolute, whatever the caller gave: a journal's record of it is found again from any folder (a relative
        // one was kept as given, and a rerun, `transfers list` and a sync's settling missed it).
        self.path = URL(fileURLWithPath: path).standardizedFileURL.path
        size = identity.size
        modificationTime = identity.modified
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
    package var mtime: Double { modificationTime.timeInterval }

    enum CodingKeys: String, CodingKey {
        case path, size, headHash, tailHash, modificationTime
        /// How records journaled before ``FileTime`` kept the time: one count of nanoseconds.
        case mtimeNanoseconds
    }

    /// Reads a journaled fingerprint, of this version or of one that kept the time as a nanosecond count, so an
    /// upload paused before an upgrade resumes after it.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        path = try container.decode(String.self, forKey: .path)
        size = try container.decode(Int64.self, forKey: .size)
        headHash = try container.decode(String.self, forKey: .headHash)
        tailHash = try container.decode(String.self, forKey: .tailHash)
        if let time = try container.decodeIfPresent(FileTime.self, forKey: .modificationTime) {
            modificationTime = time
        } else {
            modificationTime = FileTime(
                seconds: 0, nanoseconds: try container.decode(Int64.self, forKey: .mtimeNanoseconds))
        }
    }

    /// Writes the fingerprint in this version's form.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encode(size, forKey: .size)
        try container.encode(headHash, forKey: .headHash)
        try container.encode(tailHash, forKey: .tailHash)
        try container.encode(modificationTime, forKey: .modificationTime)
    }
}
