import FileModel
import HTTP
import Transfer

/// The server side of a sync, in the terms the sync needs, so another kind of server (WebDAV) can be added
/// without touching the sync logic. Paths are relative to the remote root of the sync.
public protocol SyncRemote: Sendable {
    /// How messages name the remote root.
    var description: String { get }

    /// Every entry below the root, depth first with siblings in UTF-8 byte order, fetched as it is consumed
    /// (a page ahead at most). Entries with unsafe names come as failures instead of items. A root that does
    /// not exist lists as empty with `missingRootIsEmpty` (a push creates it), else it fails.
    func makeIterator(missingRootIsEmpty: Bool) -> any SyncRemoteIterator

    /// Creates a folder (its parent exists); an existing folder is fine.
    func makeDirectory(_ path: SyncPath) async throws
    /// Uploads a local file to `path` with the given modification time, replacing what is there; resumable
    /// across runs where the server allows.
    func upload(_ localFile: String, to path: SyncPath, mtime: Double, onProgress: @escaping @Sendable (Int64) -> Void) async throws
    /// Downloads `path` (`size` bytes when listed) to `localFile`, replacing it; resumable across runs where the
    /// server allows.
    func download(_ path: SyncPath, size: Int64, to localFile: String, onProgress: @escaping @Sendable (Int64) -> Void) async throws
    /// Removes a file, or a folder with everything in it.
    func delete(_ path: SyncPath, isDirectory: Bool) async throws
    /// The SHA-256 of a file's content (hex), computed by the server.
    func sha256(_ path: SyncPath) async throws -> String
    /// Sets a file's modification time.
    func setModificationTime(_ path: SyncPath, to mtime: Double) async throws
    /// Fails when the root is not a folder (a file is there), or does not exist and `mustExist`.
    func checkRoot(mustExist: Bool) async throws
    /// The item with its exact modification time, for a listed item whose ``SyncItem/isTimeExact`` is false:
    /// the sync asks before it compares times or gives a pulled file its time.
    func exactItem(_ item: SyncItem) async throws -> SyncItem
    /// A hash of a file's content the remote can give without reading it back, for `--checksum`.
    func checksum(_ path: SyncPath) async throws -> SyncChecksum
}

extension SyncRemote {
    /// Remotes that cannot tell before listing accept any root.
    public func checkRoot(mustExist: Bool) async throws {}
    /// The listed item is exact.
    public func exactItem(_ item: SyncItem) async throws -> SyncItem { item }
    /// The server's SHA-256.
    public func checksum(_ path: SyncPath) async throws -> SyncChecksum { SyncChecksum(algorithm: .sha256, hex: try await sha256(path)) }
}

/// A content hash from the remote side of a sync: the local file is hashed the same way to compare.
public struct SyncChecksum: Sendable, Equatable {
    /// The hash function.
    public var algorithm: SHA256Hasher.Algorithm
    /// Lower-case hex.
    public var hex: String

    /// Creates a checksum.
    public init(algorithm: SHA256Hasher.Algorithm, hex: String) {
        self.algorithm = algorithm
        self.hex = hex.lowercased()
    }

    /// The same hash of a local file.
    public static func of(file: String, algorithm: SHA256Hasher.Algorithm) throws -> SyncChecksum {
        let hasher = SHA256Hasher(algorithm: algorithm)
        try hasher.update(file: file, offset: 0, length: nil)
        return SyncChecksum(algorithm: algorithm, hex: hasher.finalizeHex())
    }
}

/// Pulls a remote listing one entry at a time.
public protocol SyncRemoteIterator: AnyObject, Sendable {
    /// The next entry (or a refused name), nil at the end.
    func next() async throws -> Result<SyncItem, SyncNameError>?
}
