import Foundation

/// A bucket as ListBuckets names it.
public struct BucketInfo: Sendable, Equatable {
    /// Its name.
    public var name: String
    /// When it was created (seconds since 1970), if said.
    public var created: Double?
}

/// An object as a listing or a HEAD describes it.
public struct ObjectInfo: Sendable, Equatable {
    /// The key.
    public var key: String
    /// Bytes.
    public var size: Int64
    /// The quoted ETag (the MD5 of a single-PUT object; `"md5-N"` for a multipart one).
    public var etag: String?
    /// When the store last wrote it (seconds since 1970).
    public var lastModified: Double
    /// `x-amz-meta-*` fields, names lower-cased without the prefix (only from a HEAD or GET).
    public var metadata: [String: String] = [:]
    /// The content type, from a HEAD.
    public var contentType: String?

    /// The file's own modification time when it was stored with one (`x-amz-meta-mtime`, seconds with a
    /// fraction, as rclone writes it), else when the store wrote it.
    public var modificationTime: Double {
        metadata["mtime"].flatMap(Double.init).flatMap { $0.isFinite ? $0 : nil } ?? lastModified
    }

    /// An ETag without its quotes, as the MD5s it is compared with are written.
    public static func unquoted(_ etag: String) -> String {
        etag.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
    }

    /// The content's SHA-256 in hex, when stored in the metadata.
    public var sha256: String? {
        metadata["sha256"].flatMap { $0.count == 64 && $0.allSatisfy(\.isHexDigit) ? $0.lowercased() : nil }
    }
}

/// One page of ListObjectsV2.
public struct ObjectListPage: Sendable {
    /// Objects in key order.
    public var objects: [ObjectInfo]
    /// Common prefixes (with their trailing delimiter) when listed with one: the "folders".
    public var prefixes: [String]
    /// The token for the next page, nil on the last.
    public var nextToken: String?
}

/// A part of a multipart upload, as ListParts reports it.
public struct UploadedPart: Sendable, Equatable, Codable {
    /// 1-based part number.
    public var number: Int
    /// Its ETag (the MD5 of its bytes, quoted).
    public var etag: String
    /// Its size.
    public var size: Int64
}

enum S3Time {
    /// ISO 8601 with or without fractional seconds (`2026-11-30T12:00:00.000Z`).
    static func parse(_ text: String) -> Double? {
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = fractional.date(from: text) { return date.timeIntervalSince1970 }
        let plain = ISO8601DateFormatter()
        plain.formatOptions = [.withInternetDateTime]
        return plain.date(from: text)?.timeIntervalSince1970
    }
}
