import FileModel
import Transfer

/// A bucket, folder (prefix) or object on an object-store remote, as `ls` and `stat` show it.
package struct ObjectEntry: Sendable, Equatable {
    /// Where it is.
    package var path: ObjectStorePath
    /// A bucket or a prefix rather than an object.
    package var isFolder: Bool
    /// Bytes (0 for a folder).
    package var size: Int64
    /// The file's own modification time when known (a HEAD reads it from the metadata), else when the store wrote it.
    package var mtime: Double?
    /// The object's ETag.
    package var etag: String?
    /// The content's SHA-256 from the metadata, when stored.
    package var sha256: String?
    /// The content type, from a HEAD.
    package var contentType: String?
    /// The strongest digest of the content the object carries (``ObjectInfo/contentChecksum``), from a HEAD.
    package var checksum: Checksum?

    /// Creates an entry.
    package init(
        path: ObjectStorePath, isFolder: Bool, size: Int64 = 0, mtime: Double? = nil, etag: String? = nil,
        sha256: String? = nil, contentType: String? = nil
    ) {
        self.path = path
        self.isFolder = isFolder
        self.size = size
        self.mtime = mtime
        self.etag = etag
        self.sha256 = sha256
        self.contentType = contentType
    }
}
