/// Answer to `GET /api/file-browser/ls`.
public struct DirectoryListing: Codable, Sendable {
    /// The root listed.
    public var root: String
    /// The folder listed.
    public var path: String
    /// Its direct children, folders first, then by name.
    public var entries: [FileEntry]

    /// Creates a listing.
    public init(root: String, path: String, entries: [FileEntry]) {
        self.root = root
        self.path = path
        self.entries = entries
    }
}

/// Answer to `GET /api/file-browser/tree` (proposed): one page of a recursive listing in path order.
public struct TreePage: Codable, Sendable {
    /// The root listed.
    public var root: String
    /// The folder whose subtree is listed.
    public var path: String
    /// Entries of this page; `path` of each is absolute inside the root.
    public var entries: [FileEntry]
    /// Pass as `cursor` to get the next page; absent on the last page.
    public var nextCursor: String?

    /// A page of a recursive listing.
    public init(root: String, path: String, entries: [FileEntry], nextCursor: String?) {
        self.root = root
        self.path = path
        self.entries = entries
        self.nextCursor = nextCursor
    }
}

/// Answer to `GET /api/file-browser/search`.
public struct SearchResponse: Codable, Sendable {
    /// The root searched.
    public var root: String
    /// The query as the server understood it.
    public var query: String
    /// Matches, by path.
    public var results: [FileEntry]
    /// True when the server stopped at its result limit.
    public var truncated: Bool
}

/// Answer to `GET /api/file-browser/read`.
public struct ReadResponse: Codable, Sendable {
    /// The root read from.
    public var root: String
    /// The file read.
    public var path: String
    /// Its text.
    public var content: String
    /// Size in bytes.
    public var size: Int64
}

/// Answer to `GET /api/file-browser/sha256` (proposed).
public struct ChecksumResponse: Codable, Sendable {
    /// The file's path.
    public var path: String
    /// Lowercase hex SHA-256 of its bytes.
    public var sha256: String
    /// Size in bytes when hashed.
    public var size: Int64
    /// Modification time when hashed.
    public var mtime: Double
}

/// Answer carrying one entry (`stat`, `mkdir`, `rename`, `copy`, `move`, `write`, `mtime`).
public struct EntryResponse: Codable, Sendable {
    /// The entry as it now is.
    public var entry: FileEntry
}

/// Answer carrying several entries (`upload`).
public struct EntriesResponse: Codable, Sendable {
    /// The entries created.
    public var entries: [FileEntry]
}

/// Answer to `DELETE /api/file-browser/rm`.
public struct RemoveResponse: Codable, Sendable {
    /// How many files and folders were removed.
    public var removed: Int
}

/// Body of `POST /api/file-browser/mkdir`.
public struct MkdirRequest: Codable, Sendable {
    /// Root of the new folder.
    public var root: String
    /// Path of the new folder.
    public var path: String
    /// Create missing parents and accept an existing folder, like `mkdir -p`.
    public var parents: Bool

    /// Creates the request.
    public init(root: String, path: String, parents: Bool) {
        self.root = root
        self.path = path
        self.parents = parents
    }
}

/// Body of `POST /api/file-browser/rename`.
public struct RenameRequest: Codable, Sendable {
    /// Root of the entry.
    public var root: String
    /// The entry to rename.
    public var path: String
    /// The new last component (no `/`).
    public var newName: String

    /// Creates the request.
    public init(root: String, path: String, newName: String) {
        self.root = root
        self.path = path
        self.newName = newName
    }
}

/// Body of `POST /api/file-browser/copy` and `/move`.
public struct RelocateRequest: Codable, Sendable {
    /// Root of both paths.
    public var root: String
    /// The entry to copy or move.
    public var from: String
    /// Its new full path.
    public var to: String
    /// Replace an existing file at `to` (never a folder).
    public var overwrite: Bool

    /// Creates the request.
    public init(root: String, from: String, to: String, overwrite: Bool) {
        self.root = root
        self.from = from
        self.to = to
        self.overwrite = overwrite
    }
}

/// Body of `POST /api/file-browser/write`.
public struct WriteRequest: Codable, Sendable {
    /// Root of the file.
    public var root: String
    /// Path of the file.
    public var path: String
    /// Its new text.
    public var content: String
    /// Replace an existing file.
    public var overwrite: Bool
    /// Modification time to set, seconds since 1970.
    public var mtime: Double?

    /// Creates the request.
    public init(root: String, path: String, content: String, overwrite: Bool, mtime: Double? = nil) {
        self.root = root
        self.path = path
        self.content = content
        self.overwrite = overwrite
        self.mtime = mtime
    }
}

/// Body of `POST /api/file-browser/mtime` (proposed).
public struct SetMtimeRequest: Codable, Sendable {
    /// Root of the entry.
    public var root: String
    /// The entry.
    public var path: String
    /// The modification time to set, seconds since 1970.
    public var mtime: Double

    /// Creates the request.
    public init(root: String, path: String, mtime: Double) {
        self.root = root
        self.path = path
        self.mtime = mtime
    }
}

/// The error body every non-2xx JSON answer carries: `{"error": {"code": …, "message": …}}`.
public struct APIErrorBody: Codable, Sendable {
    /// The error detail.
    public struct Detail: Codable, Sendable {
        /// Machine-readable code, e.g. `not_found`, `token_expired`.
        public var code: String
        /// One human-readable line.
        public var message: String
    }
    /// The error detail.
    public var error: Detail
}
