import FileModel
import Foundation

/// A bucket as ListBuckets names it.
package struct BucketInfo: Sendable, Equatable {
    /// Its name.
    package var name: String
    /// When it was created (seconds since 1970), if said.
    package var created: Double?
}

/// An object as a listing or a HEAD describes it.
package struct ObjectInfo: Sendable, Equatable {
    /// The key.
    package var key: String
    /// Bytes.
    package var size: Int64
    /// The quoted ETag (the MD5 of a single-PUT object; `"md5-N"` for a multipart one).
    package var etag: String?
    /// When the store last wrote it (seconds since 1970).
    package var lastModified: Double
    /// `x-amz-meta-*` fields, names lower-cased without the prefix (only from a HEAD or GET).
    package var metadata: [String: String] = [:]
    /// The content type, from a HEAD.
    package var contentType: String?

    /// The file's own modification time when it was stored with one (`x-amz-meta-mtime`, seconds with a
    /// fraction, as rclone writes it), else when the store wrote it.
    package var modificationTime: Double {
        metadata["mtime"].flatMap(Double.init).flatMap { $0.isFinite ? $0 : nil } ?? lastModified
    }

    /// An ETag without its quotes, as the MD5s it is compared with are written.
    package static func unquoted(_ etag: String) -> String {
        etag.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
    }

    /// The content's SHA-256 in hex, when stored in the metadata.
    package var sha256: String? {
        metadata["sha256"].flatMap { $0.count == 64 && $0.allSatisfy(\.isHexDigit) ? $0.lowercased() : nil }
    }

    /// The strongest digest of the content the object carries, the one rule for it: the SHA-256 stored with it,
    /// else the MD5 its ETag is (a single-part object's), else the MD5 rclone stores with parts (`md5chksum`);
    /// nil for an object in parts without either (a download is then checked by its size alone).
    package var contentChecksum: Checksum? {
        if let sha256 { return Checksum(algorithm: .sha256, hex: sha256) }
        if let etag = etag.map(Self.unquoted), let md5 = Checksum(algorithm: .md5, hex: etag) { return md5 }
        guard let md5 = metadata["md5chksum"].flatMap({ Data(base64Encoded: $0) }), md5.count == 16 else { return nil }
        return Checksum(algorithm: .md5, hex: HexDigits.lowercase(md5))
    }
}

/// One page of ListObjectsV2.
package struct ObjectListPage: Sendable {
    /// Objects in key order.
    package var objects: [ObjectInfo]
    /// Common prefixes (with their trailing delimiter) when listed with one: the "folders".
    package var prefixes: [String]
    /// The token for the next page, nil on the last.
    package var nextToken: String?
}

/// A part of a multipart upload, as ListParts reports it.
package struct UploadedPart: Sendable, Equatable, Codable {
    /// 1-based part number.
    package var number: Int
    /// Its ETag (the MD5 of its bytes, quoted).
    package var etag: String
    /// Its size.
    package var size: Int64

    /// A part as the store acknowledged it.
    package init(number: Int, etag: String, size: Int64) {
        self.number = number
        self.etag = etag
        self.size = size
    }
}

enum S3Time {
    /// ISO 8601 with or without fractional seconds (`2026-11-30T12:00:00.000Z`).
    static func parse(_ text: String) -> Double? { HTTPDate.parseRFC3339(text) }
}
