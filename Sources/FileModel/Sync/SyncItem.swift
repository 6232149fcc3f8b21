/// One file or folder on one side of a sync.
package struct SyncItem: Sendable, Equatable {
    /// What it is.
    package enum Kind: String, Sendable, Codable {
        /// A regular file.
        case file
        /// A folder.
        case directory
    }

    /// Where it is, relative to the side's root.
    package var path: SyncPath
    /// File or folder.
    package var kind: Kind
    /// Bytes (0 for folders).
    package var size: Int64
    /// Modification time, seconds since 1970.
    package var mtime: Double
    /// Whether ``mtime`` is the file's own time. An object store lists when it stored an object; the file's time
    /// is in its metadata, and the sync asks for it only where it decides something.
    package var isTimeExact = true
    /// For a local image prepared before upload: the source file's own name (the item carries the uploaded name).
    package var sourceName: String?
    /// The version the listing gave, where it gives one (an object's ETag): a fetch holds its ranges to it and asks
    /// no HEAD first to learn it.
    package var listedVersion: String?

    /// Creates an item.
    package init(path: SyncPath, kind: Kind, size: Int64, mtime: Double, sourceName: String? = nil) {
        self.path = path
        self.kind = kind
        self.size = size
        self.mtime = mtime
        self.sourceName = sourceName
    }

    /// Whether it is a folder.
    package var isDirectory: Bool { kind == .directory }

    /// Its name (the last component of its path).
    package var name: String { path.name }
}

/// How a sync decides that two files are the same.
package enum SyncComparison: String, Sendable, Codable {
    /// Same size and modification time (to the millisecond the server keeps): the default.
    case sizeAndTime
    /// Same size only.
    case sizeOnly
    /// Same size and the same SHA-256 (the server computes its side).
    case checksum

    /// The modification times the server and file systems keep differ by less than this when they are the same.
    package static let timeTolerance = 0.002

    /// Whether `source` must be transferred over `destination` without reading any bytes; nil when only the
    /// checksums can tell (``checksum`` with equal sizes).
    package func needsTransfer(_ source: SyncItem, over destination: SyncItem, ignoringSize: Bool = false) -> Bool? {
        if !ignoringSize, source.size != destination.size { return true }
        switch self {
        case .sizeOnly: return ignoringSize ? abs(source.mtime - destination.mtime) >= Self.timeTolerance : false
        case .sizeAndTime: return abs(source.mtime - destination.mtime) >= Self.timeTolerance
        case .checksum: return ignoringSize ? abs(source.mtime - destination.mtime) >= Self.timeTolerance : nil
        }
    }
}
