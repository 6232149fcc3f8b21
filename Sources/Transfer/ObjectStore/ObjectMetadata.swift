import FileModel
import Foundation
import HTTP
import Platform

/// The metadata every object we write carries, the one rule for it: `mtime` (the file's modification time in
/// seconds with up to nine decimals, as rclone writes it, so either tool's objects compare equal to the other's),
/// `sha256` (hex, for `--checksum`: a multipart ETag is no content hash) and `md5chksum` (base64, where rclone
/// looks for the MD5 of an object stored in parts).
package enum ObjectMetadata {
    /// A file's MD5 and SHA-256, read in one pass.
    package struct Digests: Sendable {
        /// Raw MD5.
        package var md5: [UInt8]
        /// Hex SHA-256.
        package var sha256: String
    }

    /// Reads the file once, hashing both ways.
    package static func digests(of file: String) throws(HTTPError) -> Digests {
        let opened: OpenFile
        do { opened = try OpenFile(file, O_RDONLY) } catch { throw .localFile(path: file, message: "\(error)") }
        let fd = opened.descriptor
        defer { withExtendedLifetime(opened) {} }
        let md5 = SHA256Hasher(algorithm: .md5)
        let sha256 = SHA256Hasher()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = SystemCalls.retryingInterrupts { read(fd, buffer.baseAddress, buffer.count) }
            if count == 0 { break }
            if count < 0 { throw .localFile(path: file, message: String(cString: strerror(errno))) }
            let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            md5.update(bytes)
            sha256.update(bytes)
        }
        return Digests(md5: md5.finalize(), sha256: sha256.finalizeHex())
    }

    /// The metadata for a file of this version with these digests.
    package static func metadata(fingerprint: FileFingerprint, digests: Digests) -> [String: String] {
        [
            "mtime": mtimeText(fingerprint.modificationTime),
            "sha256": digests.sha256,
            "md5chksum": Data(digests.md5).base64EncodedString(),
        ]
    }

    /// The time as rclone writes it: `1700000000.123456789`, trailing zeros dropped (`1700000000` for a whole second).
    package static func mtimeText(_ time: FileTime) -> String { time.decimalText }

    /// The same for a time in seconds (to the microsecond a `Double` holds).
    package static func mtimeText(seconds: Double) -> String { FileTime(timeInterval: seconds).decimalText }
}
