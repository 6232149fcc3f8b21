import FileModel

/// One file or folder in JSON (`ls`, `ls -R`, `stat`, `search`, `mkdir`): schema `entry`.
struct EntryRecord: Encodable, Sendable {
    /// The full location (`officer:/x`, `work:/x`, `backup:bucket/key`, a local path).
    var path: String
    var name: String
    /// `file`, `folder`, `symlink` or `bucket`.
    var kind: String
    /// Bytes (0 for folders where the remote gives none).
    var size: Int64
    var modified: JSONTime?
    var mode: Int?
    var mime: String?
    var etag: String?
    var sha256: String?

    init(_ entry: RemoteEntry) {
        path = entry.location.description
        name = entry.name
        kind = Self.kind(entry.kind)
        size = entry.size
        modified = JSONTime(entry.mtime)
        mode = entry.mode
        mime = entry.mime
        etag = entry.etag
        sha256 = entry.sha256
    }

    /// The project's word for each kind: a folder is a folder.
    static func kind(_ kind: RemoteEntry.Kind) -> String {
        switch kind {
        case .file: "file"
        case .directory: "folder"
        case .symlink: "symlink"
        case .bucket: "bucket"
        }
    }
}

/// What `mv` and `cp` did, in JSON: schema `moved`.
struct MovedRecord: Encodable, Sendable {
    /// Where it was (for `cp`, still is).
    var source: String
    /// Where it is now.
    var destination: String
    /// `file` or `folder`.
    var kind: String
    var size: Int64?
}

/// What `rm` removed, in JSON: schema `removed`.
struct RemovedRecord: Encodable, Sendable {
    var path: String
    /// Files and folders removed, the path itself included.
    var entries: Int
}
