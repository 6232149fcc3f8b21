import FileModel
import Foundation
import HTTP
import Platform
import Transfer

/// One side of a sync as the engine sees it, rooted at a folder: paths are relative to that root. Remotes do not
/// implement it: ``RemoteSyncSide`` derives it from any ``Remote`` (another kind of server is added as a remote,
/// and syncs with nothing of its own); tests drive the engine with fakes of it.
package protocol SyncRemote: Sendable {
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
    func upload(_ localFile: String, to path: SyncPath, mtime: Double, onProgress: @escaping @Sendable (Int64) -> Void)
        async throws
    /// Downloads `item` (as listed: its size, and its version where the listing gives one) to `localFile`,
    /// replacing it; resumable across runs where the server allows. Returns what its bytes were checked against and
    /// the exact modification time of the version fetched when its answer carried one (an object's stored time), so
    /// an item whose listed time is not exact needs no ``exactItem(_:)`` after it.
    @discardableResult
    func download(_ item: SyncItem, to localFile: String, onProgress: @escaping @Sendable (Int64) -> Void)
        async throws -> SyncFetched
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

    // The hooks below let one engine sync any pair of sides (the local disk is one too); each has a default
    // that suits a remote reached over the network.

    /// True for the local disk: a transfer reads from it or writes into it directly instead of staging.
    var isLocalDisk: Bool { get }
    /// True where a folder exists as soon as anything is written inside it (an object store's prefix): a sync
    /// then makes a new folder only when nothing will be written in it (an empty folder's marker), instead of one
    /// request a folder ahead of its files.
    var impliesFolders: Bool { get }
    /// What the side's answers say of its link: the sync keeps more in flight where round trips are long, and less
    /// once the far end asks it to slow down. Nil: nothing measured (the local disk).
    var linkMeter: LinkMeter? { get }
    /// The listing, with problems (`true`: an error that blocks deletions) told to `onProblem`.
    func makeIterator(missingRootIsEmpty: Bool, onProblem: @escaping @Sendable (SyncPath, String, Bool) -> Void)
        -> any SyncRemoteIterator
    /// The item as this side would keep it if it were written here (the local disk clamps times it cannot hold).
    func storable(_ item: SyncItem) -> SyncItem
    /// A file on this machine with the item's bytes, for sending it elsewhere: fetched into `staging` (a staged
    /// copy of this very version is kept from a killed run), or the file itself on the local disk.
    func fileToSend(_ item: SyncItem, staging: String, onProgress: @escaping @Sendable (Int64) -> Void) async throws
        -> SyncSentFile
    /// Writes `item` from `source` here, replacing `seen` (what the plan saw here, nil for nothing); returns
    /// the bytes that went and, for bytes fetched here, what they were checked against.
    func receive(
        _ item: SyncItem, replacing seen: SyncItem?, from source: any SyncRemote, staging: String,
        onProgress: @escaping @Sendable (Int64) -> Void
    ) async throws -> SyncReceived
    /// The content hash, made like `other` where this side can choose its function (the local disk can).
    func checksum(_ path: SyncPath, like other: SyncChecksum?) async throws -> SyncChecksum
    /// Throws what ``fileToSend(_:staging:onProgress:)`` would for `item`, without sending (a dry run's check).
    func checkSendable(_ item: SyncItem) async throws
}

/// A file the sync sends from: where it is, whether it was fetched for the send (its progress then counts half)
/// and whether it goes once sent.
package struct SyncSentFile: Sendable {
    /// The path on this machine.
    package var path: String
    /// Fetched into the staging folder for this send.
    package var wasFetched: Bool
    /// A copy made for the send (staged or prepared): removed once the send is done.
    package var isCopy: Bool

    /// Describes a file to send.
    package init(path: String, wasFetched: Bool, isCopy: Bool) {
        self.path = path
        self.wasFetched = wasFetched
        self.isCopy = isCopy
    }
}

/// A source file that has not settled (``SyncOptions/settle``): not sent this time but reported.
struct SyncDeferral: Error {
    /// The path relative to the local root, as the file is named there.
    var localPath: String
}

extension SyncRemote {
    /// Remotes that cannot tell before listing accept any root.
    package func checkRoot(mustExist: Bool) async throws {}
    /// The listed item is exact.
    package func exactItem(_ item: SyncItem) async throws -> SyncItem { item }
    /// The server's SHA-256.
    package func checksum(_ path: SyncPath) async throws -> SyncChecksum {
        SyncChecksum(algorithm: .sha256, hex: try await sha256(path))
    }
    /// A remote over the network.
    package var isLocalDisk: Bool { false }
    /// Nothing measured.
    package var linkMeter: LinkMeter? { nil }
    /// Folders are made before what goes in them.
    package var impliesFolders: Bool { false }
    /// The listing; a remote's problems come as failures of the listing itself.
    package func makeIterator(missingRootIsEmpty: Bool, onProblem: @escaping @Sendable (SyncPath, String, Bool) -> Void)
        -> any SyncRemoteIterator
    {
        makeIterator(missingRootIsEmpty: missingRootIsEmpty)
    }
    /// A remote keeps what it is given.
    package func storable(_ item: SyncItem) -> SyncItem { item }
    /// Anything listed can be fetched.
    package func checkSendable(_ item: SyncItem) async throws {}
    /// The remote's function, whatever the other side's.
    package func checksum(_ path: SyncPath, like other: SyncChecksum?) async throws -> SyncChecksum {
        try await checksum(path)
    }

    /// Fetched into staging (``stagedFileToSend(_:staging:onProgress:)``).
    package func fileToSend(_ item: SyncItem, staging: String, onProgress: @escaping @Sendable (Int64) -> Void)
        async throws -> SyncSentFile
    {
        try await stagedFileToSend(item, staging: staging, onProgress: onProgress)
    }

    /// Downloads into `staging` (resumable through the journal) unless a staged copy of this version is there.
    func stagedFileToSend(_ item: SyncItem, staging: String, onProgress: @escaping @Sendable (Int64) -> Void)
        async throws -> SyncSentFile
    {
        var info = stat()
        let stagedTime =
            stat(staging, &info) == 0 ? info.modificationSeconds : -1
        if Int64(info.st_size) != item.size || abs(stagedTime - item.mtime) >= SyncComparison.timeTolerance {
            try await download(item, to: staging, onProgress: onProgress)
            try LocalSide.setModificationTime(staging, to: item.mtime)
        }
        return SyncSentFile(path: staging, wasFetched: true, isCopy: true)
    }

    /// Uploads the source's file (fetched first when the source is a remote too) under the source's time.
    package func receive(
        _ item: SyncItem, replacing seen: SyncItem?, from source: any SyncRemote, staging: String,
        onProgress: @escaping @Sendable (Int64) -> Void
    ) async throws -> SyncReceived {
        SyncReceived(bytes: try await receiveByUpload(item, from: source, staging: staging, onProgress: onProgress))
    }

    /// What a remote's ``receive(_:replacing:from:staging:onProgress:)`` does: the source's file at hand, then
    /// ``upload(_:to:mtime:onProgress:)``; returns the bytes that went.
    func receiveByUpload(
        _ item: SyncItem, from source: any SyncRemote, staging: String, onProgress: @escaping @Sendable (Int64) -> Void
    ) async throws -> Int64 {
        let total = item.size
        let file = try await source.fileToSend(item, staging: staging) { bytes in onProgress(bytes / 2) }
        try await upload(file.path, to: item.path, mtime: item.mtime) { bytes in
            onProgress(file.wasFetched ? total / 2 + bytes / 2 : bytes)
        }
        let sent =
            file.isCopy
            ? ((try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int64) ?? total) : total
        // A prepared or staged copy is kept until its upload is done, so an interrupted run resumes the same bytes.
        if file.isCopy { unlink(file.path) }
        return sent
    }
}

/// What a sync's download brought besides the bytes.
package struct SyncFetched: Sendable, Equatable {
    /// The exact modification time of the version fetched, when its answer carried one.
    package var mtime: Double?
    /// What the bytes were checked against before they took their name; nil for a copy between local folders.
    package var checked: ContentCheck?

    /// A download's outcome.
    package init(mtime: Double? = nil, checked: ContentCheck? = nil) {
        self.mtime = mtime
        self.checked = checked
    }
}

/// What a sync's side received: the bytes that went, and what fetched bytes were checked against.
package struct SyncReceived: Sendable, Equatable {
    /// Bytes moved.
    package var bytes: Int64
    /// For bytes fetched onto this machine, what they were checked against; nil for an upload.
    package var checked: ContentCheck?

    /// A received file.
    package init(bytes: Int64, checked: ContentCheck? = nil) {
        self.bytes = bytes
        self.checked = checked
    }
}

/// A content hash from the remote side of a sync: the local file is hashed the same way to compare.
package struct SyncChecksum: Sendable, Equatable {
    /// The hash function.
    package var algorithm: SHA256Hasher.Algorithm
    /// Lower-case hex.
    package var hex: String

    /// Creates a checksum.
    package init(algorithm: SHA256Hasher.Algorithm, hex: String) {
        self.algorithm = algorithm
        self.hex = hex.lowercased()
    }

    /// The same hash of a local file.
    package static func of(file: String, algorithm: SHA256Hasher.Algorithm) throws -> SyncChecksum {
        let hasher = SHA256Hasher(algorithm: algorithm)
        try hasher.update(file: file, offset: 0, length: nil)
        return SyncChecksum(algorithm: algorithm, hex: hasher.finalizeHex())
    }
}

/// Pulls a remote listing one entry at a time.
package protocol SyncRemoteIterator: AnyObject, Sendable {
    /// The next entry (or a refused name), nil at the end.
    func next() async throws -> Result<SyncItem, SyncNameError>?
}
