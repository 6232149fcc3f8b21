/// One file or folder on any remote (an Officer server, an S3 remote, this machine), in one shape: what every
/// command lists and shows, whatever the remote.
public struct RemoteEntry: Sendable, Equatable, Encodable {
    /// What it is.
    ///
    /// Its cases are all there will be: a `switch` over it needs no `default`.
    public enum Kind: String, Sendable, Codable {
        /// A file (an object on S3).
        case file
        /// A folder (a prefix on S3).
        case directory
        /// A symbolic link (Officer and the local disk only).
        case symlink
        /// A whole S3 bucket.
        case bucket
    }

    /// Where it is, as the user types it.
    public var location: Location
    /// The last component.
    public var name: String
    /// What it is.
    public var kind: Kind
    /// Bytes (0 for folders where the remote gives none).
    public var size: Int64
    /// The modification time (seconds since 1970), when the remote keeps one.
    public var mtime: Double?
    /// Unix permission bits, where the remote has them.
    public var mode: Int?
    /// The content type, where the remote says.
    public var mime: String?
    /// The remote's version tag (S3's ETag), where it has one.
    public var etag: String?
    /// The SHA-256 of the content (hex), where the remote keeps it.
    public var sha256: String?

    /// Creates an entry.
    public init(
        location: Location, name: String, kind: Kind, size: Int64 = 0, mtime: Double? = nil, mode: Int? = nil,
        mime: String? = nil,
        etag: String? = nil, sha256: String? = nil
    ) {
        self.location = location
        self.name = name
        self.kind = kind
        self.size = size
        self.mtime = mtime
        self.mode = mode
        self.mime = mime
        self.etag = etag
        self.sha256 = sha256
    }

    /// A folder or a bucket: it holds entries.
    public var isFolder: Bool { kind == .directory || kind == .bucket }

    /// What the file is as far as showing it goes — its type, the viewer that fits, the AI actions that apply —
    /// from its name and the type the listing gave (no bytes read: the file's facts read them); nil for a
    /// folder.
    public var fileType: FileType? {
        guard !isFolder else { return nil }
        let mime = self.mime ?? "application/octet-stream"
        return FileType(
            contentMIME: mime, charset: mime.hasPrefix("text/") ? "utf-8" : "binary", fileName: name)
    }

    private enum CodingKeys: String, CodingKey {
        case path, name, type, size, mtime, mode, mime, etag, sha256
    }

    /// `path` is the full location string (`officer:/x`, `work:/x`, `backup:bucket/key`, a local path).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(location.description, forKey: .path)
        try container.encode(name, forKey: .name)
        try container.encode(kind, forKey: .type)
        try container.encode(size, forKey: .size)
        try container.encodeIfPresent(mtime, forKey: .mtime)
        try container.encodeIfPresent(mode, forKey: .mode)
        try container.encodeIfPresent(mime, forKey: .mime)
        try container.encodeIfPresent(etag, forKey: .etag)
        try container.encodeIfPresent(sha256, forKey: .sha256)
    }
}

/// One folder's entries on any remote, and whether they come from a cached listing (offline).
public struct RemoteListing: Sendable, Equatable, Encodable {
    /// The folder (or the file itself, when a file was listed, as ls(1) does).
    public var location: Location
    /// Its entries, in the remote's order.
    public var entries: [RemoteEntry]
    /// When the listing shown was made, if it came from the cache (seconds since 1970); nil for a fresh one.
    public var listedAt: Double?

    /// Creates a listing.
    package init(location: Location, entries: [RemoteEntry], listedAt: Double? = nil) {
        self.location = location
        self.entries = entries
        self.listedAt = listedAt
    }

    private enum CodingKeys: String, CodingKey {
        case path, entries, listedAt
    }

    /// `path` is the full location string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(location.description, forKey: .path)
        try container.encode(entries, forKey: .entries)
        try container.encodeIfPresent(listedAt, forKey: .listedAt)
    }
}
