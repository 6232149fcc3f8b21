import FileModel
import Foundation
import HTTP
import Transfer

/// What a sync needs of a remote, written over its ordinary operations: any remote that lists, reads and writes
/// files can be one side of a sync (``RemoteSyncSide``) with nothing of its own. A backend replaces a default where
/// it does better: a paged tree, stored times, the server's checksum, the local disk's in-place writes.
extension Remote {
    /// The root as the user wrote it.
    package func syncDescription(_ root: SyncRoot) -> String { root.location.description }
    /// A remote over the network.
    package var isLocalDisk: Bool { false }
    /// Folders are made before what goes in them.
    package var impliesFolders: Bool { false }
    /// No link measured.
    package var linkMeter: LinkMeter? { nil }

    /// Folder by folder (``streamedListing(_:)``), depth first, each folder right before what is in it.
    package func syncListing(
        _ root: SyncRoot, missingRootIsEmpty: Bool, onProblem: @escaping @Sendable (SyncPath, String, Bool) -> Void
    ) -> any SyncRemoteIterator {
        RemoteTreeIterator(remote: self, root: root.location, missingRootIsEmpty: missingRootIsEmpty)
    }

    /// The root is a folder, or nothing where it need not exist yet.
    package func checkSyncRoot(_ root: SyncRoot, mustExist: Bool) async throws {
        let found: Result<RemoteEntry, any Error>
        do { found = .success(try await stat(root.location)) } catch { found = .failure(error) }
        switch found {
        case .success(let entry) where !entry.isFolder:
            throw SyncRootError.notAFolder(path: root.location.description)
        case .success: return
        case .failure(let error) where ErrorCategory.of(error) == .notFound:
            if mustExist { throw SyncRootError.missing(path: root.location.description, onThisMachine: false) }
        case .failure(let error): throw error
        }
    }

    /// Makes the folder, and any missing above it.
    package func makeSyncFolder(_ path: SyncPath, in root: SyncRoot) async throws {
        _ = try await makeFolder(try root.location(of: path), parents: true)
    }

    /// Uploads the file in place of what is there (its time is the remote's own where it cannot be set).
    package func syncUpload(
        _ local: String, to path: SyncPath, in root: SyncRoot, mtime: Double,
        onProgress: @escaping @Sendable (Int64) -> Void
    ) async throws {
        let operation = upload(local, to: try root.location(of: path), overwrite: true, options: UploadOptions())
        let progress = PartProgressSum()
        for await event in operation {
            if case .progress(let part, let done) = event { onProgress(progress.update(part: part, done: done)) }
        }
        _ = try await operation.value
    }

    /// Downloads the file, checked against what the remote offers.
    package func syncDownload(
        _ item: SyncItem, in root: SyncRoot, to local: String,
        onProgress: @escaping @Sendable (Int64) -> Void
    ) async throws -> SyncFetched {
        let options = DownloadOptions.syncFetch(size: item.size)
        let operation = download(try root.location(of: item.path), to: local, options: options)
        let progress = PartProgressSum()
        for await event in operation {
            if case .progress(let part, let done) = event { onProgress(progress.update(part: part, done: done)) }
        }
        return SyncFetched(checked: try await operation.value.checkedBy)
    }

    /// Removes the file, or the folder with everything in it.
    package func syncDelete(_ path: SyncPath, isDirectory: Bool, in root: SyncRoot) async throws {
        _ = try await remove(try root.location(of: path), recursive: isDirectory)
    }

    /// The SHA-256 the remote lists with the file, whatever the other side's function.
    package func syncChecksum(_ path: SyncPath, in root: SyncRoot, like other: SyncChecksum?) async throws
        -> SyncChecksum
    {
        let location = try root.location(of: path)
        guard let sha256 = try await stat(location).sha256 else { throw unavailable("checksums", location) }
        return SyncChecksum(algorithm: .sha256, hex: sha256)
    }

    /// Times are the remote's own unless it says otherwise.
    package func setSyncTime(_ path: SyncPath, in root: SyncRoot, to mtime: Double) async throws {
        throw unavailable("setting file times", try root.location(of: path))
    }

    /// The listed item is exact.
    package func exactItem(_ item: SyncItem, in root: SyncRoot) async throws -> SyncItem { item }

    /// The remote keeps what it is given.
    package func storable(_ item: SyncItem, in root: SyncRoot) -> SyncItem { item }

    /// Anything listed can be fetched.
    package func checkSendable(_ item: SyncItem, in root: SyncRoot) async throws {}

    /// Nothing of its own on this machine: sent files are fetched into staging first.
    package func ownFileToSend(_ item: SyncItem, in root: SyncRoot) async throws -> SyncSentFile? { nil }

    /// Nothing written in place: what comes is uploaded.
    package func receiveInPlace(
        _ item: SyncItem, replacing seen: SyncItem?, from source: any SyncRemote, in root: SyncRoot,
        onProgress: @escaping @Sendable (Int64) -> Void
    ) async throws -> SyncReceived? { nil }
}

/// A remote's tree as a sync reads it, built from its folder listings: depth first, each level in UTF-8 byte
/// order with a folder right before what is in it; links are left alone; a name the sync cannot use comes as a
/// refusal. One level is held per depth.
actor RemoteTreeIterator: SyncRemoteIterator {
    private let remote: any Remote
    private let root: Location
    private let missingRootIsEmpty: Bool
    private var levels: [(path: SyncPath, entries: [RemoteEntry], next: Int)] = []
    private var started = false

    init(remote: any Remote, root: Location, missingRootIsEmpty: Bool) {
        self.remote = remote
        self.root = root
        self.missingRootIsEmpty = missingRootIsEmpty
    }

    func next() async throws -> Result<SyncItem, SyncNameError>? {
        if !started {
            started = true
            guard let top = try await level(root, missing: missingRootIsEmpty) else { return nil }
            levels = [(.root, top, 0)]
        }
        while var level = levels.popLast() {
            guard level.next < level.entries.count else { continue }
            let entry = level.entries[level.next]
            level.next += 1
            levels.append(level)
            guard entry.kind != .symlink else { continue }
            if let reason = SyncPath.problem(withName: entry.name) {
                return .failure(SyncNameError(name: entry.location.description, reason: reason))
            }
            let path = level.path.appending(entry.name)
            if entry.isFolder, let inside = try await self.level(entry.location, missing: false) {
                levels.append((path, inside, 0))
            }
            return .success(
                SyncItem(
                    path: path, kind: entry.isFolder ? .directory : .file, size: entry.isFolder ? 0 : entry.size,
                    mtime: entry.mtime ?? 0))
        }
        return nil
    }

    /// A folder's entries in byte order; nil for a missing folder where that is allowed.
    private func level(_ location: Location, missing allowed: Bool) async throws -> [RemoteEntry]? {
        var entries: [RemoteEntry] = []
        do {
            for try await entry in remote.streamedListing(location) { entries.append(entry) }
        } catch {
            if allowed, ErrorCategory.of(error) == .notFound { return nil }
            throw error
        }
        return entries
    }
}
