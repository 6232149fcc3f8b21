import FileModel
import Foundation
import HTTP
import Platform

/// The metadata every object we write carries, the one rule for it: `mtime` (the file's modification time in
/// seconds with up to nine decimals, as rclone writes it, so either tool's objects compare equal to the other's),
/// `sha256` (hex, for `--checksum`: a multipart ETag is no content hash) and `md5chksum` (base64, where rclone
/// looks for the MD5 of an object stored in parts).
package enum ObjectMetadata {
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
