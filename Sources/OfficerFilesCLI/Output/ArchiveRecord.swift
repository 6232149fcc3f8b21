import Preview

/// What `archive ls` finds in an archive, in JSON: schema `archive`.
struct ArchiveRecord: Encodable, Sendable {
    /// The archive (a local path, `officer:/x`, a URL).
    var path: String
    /// The format in words (`ZIP 2.0`, `GNU tar format`).
    var format: String
    var files: Int
    var folders: Int
    /// Bytes of the members once extracted.
    var size: Int64
    /// Bytes of the archive.
    var archiveSize: Int64
    /// `size` over `archiveSize`; absent for an archive of no bytes.
    var ratio: Double?
    var warnings: [Warning]
    var members: [Member]

    struct Warning: Encodable, Sendable {
        /// `absolute-path`, `parent-traversal`, `link-escapes`, `duplicate-name`, `bomb` or `encrypted`.
        var kind: String
        /// The member it is about.
        var member: String?
        var detail: String
    }

    struct Member: Encodable, Sendable {
        /// Its path inside the archive.
        var path: String
        /// `file`, `folder`, `symlink`, `hardlink` or `special`.
        var kind: String
        var size: Int64?
        var mode: Int
        var modified: JSONTime
        var linkTarget: String?
        var encrypted: Bool
    }

    init(_ inspection: ArchiveInspection, path: String) {
        self.path = path
        format = inspection.format
        files = inspection.fileCount
        folders = inspection.directoryCount
        size = inspection.totalSize
        archiveSize = inspection.archiveSize
        ratio = inspection.archiveSize > 0 && inspection.ratio.isFinite ? inspection.ratio : nil
        warnings = inspection.warnings.map { Warning(kind: $0.kind.rawValue, member: $0.entry, detail: $0.detail) }
        members = inspection.members.map {
            Member(
                path: $0.path, kind: $0.kind == .directory ? "folder" : $0.kind.rawValue, size: $0.size, mode: $0.mode,
                modified: JSONTime(Double($0.mtime)), linkTarget: $0.linkTarget, encrypted: $0.encrypted)
        }
    }
}
