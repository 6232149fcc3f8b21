import FileModel
import Foundation
import HTTP

/// A side of a sync whose transfers take a slot of their own limit (``SyncSideLimit``): a server that takes few
/// connections caps its own side, not the other (a staged copy fetches from a fast source while the slow
/// destination sends, each half in its side's slot). Listings, checks, folders and deletions go as they would.
struct LimitedSyncRemote: SyncRemote {
    let base: any SyncRemote
    let limit: SyncSideLimit

    init(_ base: any SyncRemote, limit: Int) {
        self.base = base
        self.limit = SyncSideLimit(limit: limit)
    }

    var description: String { base.description }
    var isLocalDisk: Bool { base.isLocalDisk }
    var impliesFolders: Bool { base.impliesFolders }
    var linkMeter: LinkMeter? { base.linkMeter }

    func makeIterator(missingRootIsEmpty: Bool) -> any SyncRemoteIterator {
        base.makeIterator(missingRootIsEmpty: missingRootIsEmpty)
    }
    func makeIterator(missingRootIsEmpty: Bool, onProblem: @escaping @Sendable (SyncPath, String, Bool) -> Void)
        -> any SyncRemoteIterator
    {
        base.makeIterator(missingRootIsEmpty: missingRootIsEmpty, onProblem: onProblem)
    }
    func makeDirectory(_ path: SyncPath) async throws { try await base.makeDirectory(path) }
    func upload(_ localFile: String, to path: SyncPath, mtime: Double, onProgress: @escaping @Sendable (Int64) -> Void)
        async throws
    {
        try await limit.run { try await base.upload(localFile, to: path, mtime: mtime, onProgress: onProgress) }
    }
    func download(_ item: SyncItem, to localFile: String, onProgress: @escaping @Sendable (Int64) -> Void)
        async throws -> SyncFetched
    {
        try await limit.run { try await base.download(item, to: localFile, onProgress: onProgress) }
    }
    func delete(_ path: SyncPath, isDirectory: Bool) async throws {
        try await base.delete(path, isDirectory: isDirectory)
    }
    func sha256(_ path: SyncPath) async throws -> String { try await base.sha256(path) }
    func setModificationTime(_ path: SyncPath, to mtime: Double) async throws {
        try await base.setModificationTime(path, to: mtime)
    }
    func checkRoot(mustExist: Bool) async throws { try await base.checkRoot(mustExist: mustExist) }
    func exactItem(_ item: SyncItem) async throws -> SyncItem { try await base.exactItem(item) }
    func checksum(_ path: SyncPath) async throws -> SyncChecksum { try await base.checksum(path) }
    func checksum(_ path: SyncPath, like other: SyncChecksum?) async throws -> SyncChecksum {
        try await base.checksum(path, like: other)
    }
    func storable(_ item: SyncItem) -> SyncItem { base.storable(item) }
    func checkSendable(_ item: SyncItem) async throws { try await base.checkSendable(item) }

    /// The fetch half of a staged copy (or the local file itself, which takes no slot).
    func fileToSend(_ item: SyncItem, staging: String, onProgress: @escaping @Sendable (Int64) -> Void) async throws
        -> SyncSentFile
    {
        if base.isLocalDisk { return try await base.fileToSend(item, staging: staging, onProgress: onProgress) }
        return try await limit.run { try await base.fileToSend(item, staging: staging, onProgress: onProgress) }
    }

    /// A remote receives by upload, which takes this side's slot once the source's file is at hand (the fetch
    /// takes the source's); the local disk receives by the source's download, limited by the source.
    func receive(
        _ item: SyncItem, replacing seen: SyncItem?, from source: any SyncRemote, staging: String,
        onProgress: @escaping @Sendable (Int64) -> Void
    ) async throws -> SyncReceived {
        if base.isLocalDisk {
            return try await base.receive(
                item, replacing: seen, from: source, staging: staging, onProgress: onProgress)
        }
        // What the default `receive` does, with this side's slot around the upload alone: a remote side that
        // receives otherwise must be wrapped here too.
        return SyncReceived(
            bytes: try await receiveByUpload(item, from: source, staging: staging, onProgress: onProgress))
    }
}
