/// What a path was when the client last saw it: what a queued write expects to find when it is replayed.
package enum PathState: Codable, Sendable, Equatable, CustomStringConvertible {
    /// Nothing there.
    case absent
    /// A folder, with the modification time listed (it changes when entries are added or removed).
    case folder(mtime: Double)
    /// A file of this size and modification time.
    case file(size: Int64, mtime: Double)

    /// The state of a listed entry.
    package init(_ entry: FileEntry) {
        self = entry.isDirectory ? .folder(mtime: entry.mtime) : .file(size: entry.size, mtime: entry.mtime)
    }

    /// True when `other` is the same version: same kind, size and modification time (within
    /// ``SyncComparison/timeTolerance``, as sync compares them).
    package func matches(_ other: PathState) -> Bool {
        switch (self, other) {
        case (.absent, .absent): true
        case (.folder(let a), .folder(let b)): abs(a - b) < SyncComparison.timeTolerance
        case (.file(let sizeA, let a), .file(let sizeB, let b)):
            sizeA == sizeB && abs(a - b) < SyncComparison.timeTolerance
        default: false
        }
    }

    /// In words: `absent`, `a folder`, `12.0 KiB modified 2026-11-30 10:00:00 UTC`.
    package var description: String {
        switch self {
        case .absent: "absent"
        case .folder: "a folder"
        case .file(let size, let mtime): "\(ByteCountFormat.string(size)) modified \(TimeStamp.shown(mtime))"
        }
    }
}

/// One path a queued write touches and the state it expects there.
package struct PathExpectation: Codable, Sendable, Equatable {
    /// The path (in the write's root).
    package var path: String
    /// What it must still be for the write to apply.
    package var state: PathState

    /// Creates an expectation.
    package init(path: String, state: PathState) {
        self.path = path
        self.state = state
    }
}

/// A change to the server made while it could not be reached, kept to be replayed in order: what to do, and
/// what the client last saw of each path it touches, so a replay never clobbers a change made meanwhile.
package struct QueuedWrite: Codable, Sendable, Equatable {
    /// The operation.
    package enum Kind: String, Codable, Sendable {
        /// Make a folder (`parents`: and what is missing above it).
        case makeFolder = "mkdir"
        /// Upload `local` as the file `path`.
        case upload = "put"
        /// Move `path` to `destination`.
        case move = "mv"
        /// Copy `path` to `destination`.
        case copy = "cp"
        /// Remove `path` (`recursive`: a folder and everything in it).
        case remove = "rm"
    }

    /// The operation.
    package var kind: Kind
    /// The root of every path.
    package var root: String
    /// The folder to make, the file to upload to, the source of a move or copy, or what to remove.
    package var path: String
    /// Where a move or copy goes.
    package var destination: String?
    /// The local file an upload sends (absolute); it is read as it is at replay time.
    package var local: String?
    /// Create missing parent folders.
    package var parents: Bool
    /// Copy or remove folders with their contents.
    package var recursive: Bool
    /// Replace a file at the destination (only the version last seen there).
    package var overwrite: Bool
    /// What each touched path must still be; filled when the write is queued.
    package var expectations: [PathExpectation]

    /// Creates a write; expectations are added when it is queued.
    package init(
        kind: Kind, root: String, path: String, destination: String? = nil, local: String? = nil, parents: Bool = false,
        recursive: Bool = false, overwrite: Bool = false, expectations: [PathExpectation] = []
    ) {
        self.kind = kind
        self.root = root
        self.path = path
        self.destination = destination
        self.local = local
        self.parents = parents
        self.recursive = recursive
        self.overwrite = overwrite
        self.expectations = expectations
    }

    /// The paths it changes or reads, for ordering: a later write touching one of them (or a path above or
    /// below it) waits for this one.
    package var touchedPaths: [String] { [path] + (destination.map { [$0] } ?? []) }

    /// True when this write and `other` touch a common path, or one's path lies inside the other's.
    package func overlaps(_ other: QueuedWrite) -> Bool {
        guard root == other.root else { return false }
        for a in touchedPaths {
            for b in other.touchedPaths where Self.related(a, b) { return true }
        }
        return false
    }

    static func related(_ a: String, _ b: String) -> Bool {
        a == b || a == "/" || b == "/" || a.hasPrefix(b + "/") || b.hasPrefix(a + "/")
    }

    /// One line: `mv officer:/a.txt officer:/b.txt`, each path a word as a shell reads it back (``ShellWord``).
    package var summary: String {
        func shown(_ path: String) -> String {
            ShellWord.quoted(root == RemotePath.defaultRoot ? "officer:\(path)" : "officer:\(root):\(path)")
        }
        switch kind {
        case .makeFolder: return "mkdir \(parents ? "-p " : "")\(shown(path))"
        case .upload: return "put \(overwrite ? "-f " : "")\(ShellWord.quoted(local ?? "?")) \(shown(path))"
        case .move: return "mv \(overwrite ? "-f " : "")\(shown(path)) \(shown(destination ?? "?"))"
        case .copy:
            return "cp \(recursive ? "-r " : "")\(overwrite ? "-f " : "")\(shown(path)) \(shown(destination ?? "?"))"
        case .remove: return "rm \(recursive ? "-r " : "")\(shown(path))"
        }
    }
}
