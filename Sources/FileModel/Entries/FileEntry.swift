import Foundation

/// One file or folder as the Officer API describes it (see `docs/officer-api.md`, "Entry").
package struct FileEntry: Codable, Hashable, Sendable {
    /// What kind of thing the entry is.
    package enum Kind: String, Codable, Sendable {
        /// A regular file.
        case file
        /// A folder.
        case directory
        /// A symbolic link (the server never follows one that leads out of its root).
        case symlink
    }

    /// The last path component.
    package var name: String
    /// The absolute path inside the root.
    package var path: String
    /// File, folder or link.
    package var type: Kind
    /// Size in bytes (0 for folders).
    package var size: Int64
    /// Modification time, seconds since 1970 (fractional part kept to the millisecond).
    package var mtime: Double
    /// POSIX permission bits, e.g. 0o644.
    package var mode: Int?
    /// The server's MIME guess, when it gives one.
    package var mime: String?

    /// Creates an entry; used by tests and by local listings that compare with remote ones.
    package init(
        name: String, path: String, type: Kind, size: Int64, mtime: Double, mode: Int? = nil, mime: String? = nil
    ) {
        self.name = name
        self.path = path
        self.type = type
        self.size = size
        self.mtime = mtime
        self.mode = mode
        self.mime = mime
    }

    /// True for folders.
    package var isDirectory: Bool { type == .directory }

    /// The modification time as a `Date`.
    package var modified: Date { Date(timeIntervalSince1970: mtime) }
}
