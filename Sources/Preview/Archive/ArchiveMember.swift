/// One member of an archive as listed without extracting it.
public struct ArchiveMember: Hashable, Sendable, Codable {
    /// What kind of member it is.
    public enum Kind: String, Sendable, Codable {
        /// A regular file.
        case file
        /// A folder.
        case directory
        /// A symbolic link (see `linkTarget`).
        case symlink
        /// A hard link to another member (see `linkTarget`).
        case hardlink
        /// A device, FIFO or socket.
        case special
    }

    /// The member's path as stored.
    public var path: String
    /// Its kind.
    public var kind: Kind
    /// Uncompressed size, when the archive records it.
    public var size: Int64?
    /// Permission bits.
    public var mode: Int
    /// Modification time, seconds since 1970.
    public var mtime: Int64
    /// Target of a symlink or hard link.
    public var linkTarget: String?
    /// Encrypted data (zip, 7z, rar).
    public var encrypted: Bool

    /// True for folder members.
    public var isDirectory: Bool { kind == .directory }

    /// A member as listed.
    public init(
        path: String, kind: Kind, size: Int64?, mode: Int, mtime: Int64, linkTarget: String?, encrypted: Bool
    ) {
        self.path = path
        self.kind = kind
        self.size = size
        self.mode = mode
        self.mtime = mtime
        self.linkTarget = linkTarget
        self.encrypted = encrypted
    }
}
