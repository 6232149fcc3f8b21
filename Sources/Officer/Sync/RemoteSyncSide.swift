import FileModel
import Foundation
import HTTP
import Transfer

/// A remote as one side of a sync, rooted at a folder: the sync engine's view (``SyncRemote``) derived from the
/// one remote seam (``Remote``), so no backend is written twice. Every call goes to the remote's sync
/// requirements, whose defaults are written over its ordinary operations (any remote that lists, reads and
/// writes files can be synced) and which a backend does better where it can (paged trees, stored times,
/// checksums, the local disk's in-place writes).
package struct RemoteSyncSide: SyncRemote {
    /// The remote.
    package let remote: any Remote
    /// Where the side is rooted, with the sync's options.
    package let root: SyncRoot

    /// The side of `remote` rooted at `root`.
    package init(_ remote: any Remote, root: SyncRoot) {
        self.remote = remote
        self.root = root
    }

    /// The root as the user wrote it (a local folder standardized).
    package var description: String { remote.syncDescription(root) }
    /// True for this machine's disk.
    package var isLocalDisk: Bool { remote.isLocalDisk }
    /// True for an object store's prefixes.
    package var impliesFolders: Bool { remote.impliesFolders }
    package var linkMeter: LinkMeter? { remote.linkMeter }

    package func makeIterator(missingRootIsEmpty: Bool) -> any SyncRemoteIterator {
        remote.syncListing(root, missingRootIsEmpty: missingRootIsEmpty) { _, _, _ in }
    }

    package func makeIterator(missingRootIsEmpty: Bool, onProblem: @escaping @Sendable (SyncPath, String, Bool) -> Void)
        -> any SyncRemoteIterator
    {
        remote.syncListing(root, missingRootIsEmpty: missingRootIsEmpty, onProblem: onProblem)
    }

    package func checkRoot(mustExist: Bool) async throws { try await remote.checkSyncRoot(root, mustExist: mustExist) }

    package func makeDirectory(_ path: SyncPath) async throws { try await remote.makeSyncFolder(path, in: root) }

    package func upload(
        _ localFile: String, to path: SyncPath, mtime: Double, onProgress: @escaping @Sendable (Int64) -> Void
    ) async throws {
        try await remote.syncUpload(localFile, to: path, in: root, mtime: mtime, onProgress: onProgress)
    }

    package func download(
        _ item: SyncItem, to localFile: String, onProgress: @escaping @Sendable (Int64) -> Void
    ) async throws -> SyncFetched {
        try await remote.syncDownload(item, in: root, to: localFile, onProgress: onProgress)
    }

    package func delete(_ path: SyncPath, isDirectory: Bool) async throws {
        try await remote.syncDelete(path, isDirectory: isDirectory, in: root)
    }

    package func sha256(_ path: SyncPath) async throws -> String {
        let sum = try await remote.syncChecksum(path, in: root, like: nil)
        guard sum.algorithm == .sha256 else {
            throw RemoteUnavailable(location: try root.location(of: path), kind: remote.kind, what: "a SHA-256")
        }
        return sum.hex
    }

    package func checksum(_ path: SyncPath) async throws -> SyncChecksum {
        try await remote.syncChecksum(path, in: root, like: nil)
    }

    package func checksum(_ path: SyncPath, like other: SyncChecksum?) async throws -> SyncChecksum {
        try await remote.syncChecksum(path, in: root, like: other)
    }

    package func setModificationTime(_ path: SyncPath, to mtime: Double) async throws {
        try await remote.setSyncTime(path, in: root, to: mtime)
    }

    package func exactItem(_ item: SyncItem) async throws -> SyncItem { try await remote.exactItem(item, in: root) }

    package func storable(_ item: SyncItem) -> SyncItem { remote.storable(item, in: root) }

    package func checkSendable(_ item: SyncItem) async throws { try await remote.checkSendable(item, in: root) }

    /// The remote's own file where it has one (the local disk), else fetched into `staging`.
    package func fileToSend(_ item: SyncItem, staging: String, onProgress: @escaping @Sendable (Int64) -> Void)
        async throws -> SyncSentFile
    {
        if let own = try await remote.ownFileToSend(item, in: root) { return own }
        return try await stagedFileToSend(item, staging: staging, onProgress: onProgress)
    }

    /// Written in place where the remote does that (the local disk), else the source's file uploaded.
    package func receive(
        _ item: SyncItem, replacing seen: SyncItem?, from source: any SyncRemote, staging: String,
        onProgress: @escaping @Sendable (Int64) -> Void
    ) async throws -> SyncReceived {
        if let received = try await remote.receiveInPlace(
            item, replacing: seen, from: source, in: root, onProgress: onProgress)
        {
            return received
        }
        return SyncReceived(
            bytes: try await receiveByUpload(item, from: source, staging: staging, onProgress: onProgress))
    }
}
