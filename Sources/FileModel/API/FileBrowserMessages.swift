/// Answer to `GET /api/file-browser/ls`.
package struct DirectoryListing: Codable, Sendable {
    /// The root listed.
    package var root: String
    /// The folder listed.
    package var path: String
    /// Its direct children, folders first, then by name.
    package var entries: [FileEntry]

    /// Creates a listing.
    package init(root: String, path: String, entries: [FileEntry]) {
        self.root = root
        self.path = path
        self.entries = entries
    }
}

/// Answer to `GET /api/file-browser/tree` (proposed): one page of a recursive listing in path order.
package struct TreePage: Codable, Sendable {
    /// The root listed.
    package var root: String
    /// The folder whose subtree is listed.
    package var path: String
    /// Entries of this page; `path` of each is absolute inside the root.
    package var entries: [FileEntry]
    /// Pass as `cursor` to get the next page; absent on the last page.
    package var nextCursor: String?

    /// A page of a recursive listing.
    package init(root: String, path: String, entries: [FileEntry], nextCursor: String?) {
        self.root = root
        self.path = path
        self.entries = entries
        self.nextCursor = nextCursor
    }
}

/// Answer to `GET /api/file-browser/search`.
package struct SearchResponse: Codable, Sendable {
    /// The root searched.
    package var root: String
    /// The query as the server understood it.
    package var query: String
    /// Matches, by path.
    package var results: [FileEntry]
    /// True when the server stopped at its result limit.
    package var truncated: Bool
}

/// Answer to `GET /api/file-browser/read`.
package struct ReadResponse: Codable, Sendable {
    /// The root read from.
    package var root: String
    /// The file read.
    package var path: String
    /// Its text.
    package var content: String
    /// Size in bytes.
    package var size: Int64
}

/// Answer to `GET /api/file-browser/sha256` (proposed).
package struct ChecksumResponse: Codable, Sendable {
    /// The file's path.
    package var path: String
    /// Lowercase hex SHA-256 of its bytes.
    package var sha256: String
    /// Size in bytes when hashed.
    package var size: Int64
    /// Modification time when hashed.
    package var mtime: Double
}

/// Answer carrying one entry (`stat`, `mkdir`, `rename`, `copy`, `move`, `write`, `mtime`).
package struct EntryResponse: Codable, Sendable {
    /// The entry as it now is.
    package var entry: FileEntry
}

/// Answer carrying several entries (`upload`).
package struct EntriesResponse: Codable, Sendable {
    /// The entries created.
    package var entries: [FileEntry]
}

/// Answer to `DELETE /api/file-browser/rm`.
package struct RemoveResponse: Codable, Sendable {
    /// How many files and folders were removed.
    package var removed: Int
}

/// Body of `POST /api/file-browser/mkdir`.
package struct MkdirRequest: Codable, Sendable {
    /// Root of the new folder.
    package var root: String
    /// Path of the new folder.
    package var path: String
    /// Create missing parents and accept an existing folder, like `mkdir -p`.
    package var parents: Bool

    /// Creates the request.
    package init(root: String, path: String, parents: Bool) {
        self.root = root
        self.path = path
        self.parents = parents
    }
}

/// Body of `POST /api/file-browser/rename`.
package struct RenameRequest: Codable, Sendable {
    /// Root of the entry.
    package var root: String
    /// The entry to rename.
    package var path: String
    /// The new last component (no `/`).
    package var newName: String

    /// Creates the request.
    package init(root: String, path: String, newName: String) {
        self.root = root
        self.path = path
        self.newName = newName
    }
}

/// Body of `POST /api/file-browser/copy` and `/move`.
package struct RelocateRequest: Codable, Sendable {
    /// Root of both paths.
    package var root: String
    /// The entry to copy or move.
    package var from: String
    /// Its new full path.
    package var to: String
    /// Replace an existing file at `to` (never a folder).
    package var overwrite: Bool

    /// Creates the request.
    package init(root: String, from: String, to: String, overwrite: Bool) {
        self.root = root
        self.from = from
        self.to = to
        self.overwrite = overwrite
    }
}

/// Body of `POST /api/file-browser/write`.
package struct WriteRequest: Codable, Sendable {
    /// Root of the file.
    package var root: String
    /// Path of the file.
    package var path: String
    /// Its new text.
    package var content: String
    /// Replace an existing file.
    package var overwrite: Bool
    /// Modification time to set, seconds since 1970.
    package var mtime: Double?

    /// Creates the request.
    package init(root: String, path: String, content: String, overwrite: Bool, mtime: Double? = nil) {
        self.root = root
        self.path = path
        self.content = content
        self.overwrite = overwrite
        self.mtime = mtime
    }
}

/// Body of `POST /api/file-browser/mtime` (proposed).
package struct SetMtimeRequest: Codable, Sendable {
    /// Root of the entry.
    package var root: String
    /// The entry.
    package var path: String
    /// The modification time to set, seconds since 1970.
    package var mtime: Double

    /// Creates the request.
    package init(root: String, path: String, mtime: Double) {
        self.root = root
        self.path = path
        self.mtime = mtime
    }
}

/// The error body every non-2xx JSON answer carries: `{"error": {"code": …, "message": …}}`.
package struct APIErrorBody: Codable, Sendable {
    /// The error detail.
    package struct Detail: Codable, Sendable {
        /// Machine-readable code, e.g. `not_found`, `token_expired`.
        package var code: String
        /// One human-readable line.
        package var message: String
    }
    /// The error detail.
    package var error: Detail
}
