import FileModel
import Foundation
import HTTP
import Journal
import Transfer

/// An Officer server's side of a sync: the paged tree listing where the server offers `tree` (folder by folder
/// otherwise), tus uploads, segmented downloads checked against the server's checksum, times set with the
/// proposed `mtime`, and for a server that keeps its own time (the seed's upload takes none) the time sent
/// remembered in the journal as standing for the one it keeps.
extension OfficerServerRemote {
    /// Entries per page of the tree listing.
    static let treePageSize = 1000

    /// What a remembered time is keyed by besides the path: the size and the time the server keeps of the file.
    static func storedVersion(mtime: Double) -> String { "officer-mtime:\(mtime)" }

    /// The folder synced.
    func base(_ root: SyncRoot) throws -> RemotePath { try path(root.location) }

    /// The server path of `path` below the root.
    func remotePath(_ path: SyncPath, in root: SyncRoot) throws -> RemotePath {
        var result = try base(root)
        for component in path.components { result = try result.appending(component) }
        return result
    }

    func syncDescription(_ root: SyncRoot) -> String { (try? base(root).description) ?? root.location.description }

    /// The tree below the root, paged where the server offers `tree`, folder by folder otherwise.
    func syncListing(
        _ root: SyncRoot, missingRootIsEmpty: Bool, onProblem: @escaping @Sendable (SyncPath, String, Bool) -> Void
    ) -> any SyncRemoteIterator {
        do {
            return OfficerTreeIterator(
                client: try server.client, base: try base(root), pageSize: Self.treePageSize,
                missingRootIsEmpty: missingRootIsEmpty, journal: try server.journal)
        } catch {
            return FailedSyncListing(error)
        }
    }

    /// Checks the root folder (and that it exists where it must).
    func checkSyncRoot(_ root: SyncRoot, mustExist: Bool) async throws {
        let base = try base(root)
        // A destination's uploads first ask what its upload endpoint offers: asked beside the root's check, not a
        // round trip after the folders are made.
        async let discovered: Void = mustExist ? () : discoverUploads(into: base)
        let exists: Bool
        do {
            exists = try await server.client.folderExists(base)
        } catch {
            await discovered
            throw error
        }
        await discovered
        if !exists, mustExist { throw OfficerError.notFound(request: "sync", message: "\(base): no such folder") }
    }

    /// Asks the upload endpoint's capabilities once (remembered for the uploads to come); a failure is left for
    /// the first upload to meet.
    private func discoverUploads(into folder: RemotePath) async {
        guard let client = try? server.client, let uploader = try? server.uploader(),
            let target = try? client.uploadTarget(name: "probe", into: folder, mtime: nil, overwrite: true)
        else { return }
        _ = try? await uploader.discover(target)
    }

    /// Makes a folder on the server (an existing one is fine).
    func makeSyncFolder(_ path: SyncPath, in root: SyncRoot) async throws {
        do {
            _ = try await server.client.makeDirectory(try remotePath(path, in: root), parents: true)
        } catch OfficerError.conflict {
            // Already there.
        }
    }

    /// Uploads a local file (resumably) with its time.
    func syncUpload(
        _ local: String, to path: SyncPath, in root: SyncRoot, mtime: Double,
        onProgress: @escaping @Sendable (Int64) -> Void
    ) async throws {
        let client = try server.client
        let journal = try server.journal
        let folder = try remotePath(SyncPath(Array(path.components.dropLast())), in: root)
        let target = try client.uploadTarget(name: path.name, into: folder, mtime: mtime, overwrite: true)
        let uploader = TusUploader.describingFiles(
            http: client.http, journal: journal, server: client, endpoints: server.uploadEndpoints)
        let result: UploadResult
        do {
            result = try await uploader.upload(file: local, to: target) { event in
                if case .progress(_, let sent) = event { onProgress(sent) }
            }
        } catch {
            throw client.signInNeeded(after: error)
        }
        // A server that keeps its own time (the seed's upload takes none) would look changed on every later run:
        // the time it keeps, with the size, is remembered as standing for the one sent.
        if let stored = result.storedModificationTime, abs(stored - mtime) >= SyncComparison.timeTolerance {
            let key = try folder.appending(path.name)
            try? journal?.rememberObjectTime(
                endpoint: client.server, bucket: key.root, key: key.path,
                TransferJournal.ObjectTime(etag: Self.storedVersion(mtime: stored), size: result.bytes, mtime: mtime))
        }
    }

    /// Downloads a file, checked against the server's checksum where it offers one.
    func syncDownload(
        _ item: SyncItem, in root: SyncRoot, to local: String,
        onProgress: @escaping @Sendable (Int64) -> Void
    ) async throws -> SyncFetched {
        let client = try server.client
        let options = DownloadOptions.syncFetch(size: item.size)
        let downloader = SegmentedDownloader(http: client.http, journal: try server.journal)
        let progress = PartProgressSum()
        let result: DownloadResult
        do {
            result = try await client.checkedDownload(
                try remotePath(item.path, in: root), with: downloader, to: local, options: options
            ) { event in
                if case .progress(let segment, let done) = event {
                    onProgress(progress.update(part: segment, done: done))
                }
            }
        } catch {
            throw client.signInNeeded(after: error)
        }
        // The listing's times are the server's own: exact already.
        return SyncFetched(checked: result.checkedBy)
    }

    /// Removes a file or folder on the server.
    func syncDelete(_ path: SyncPath, isDirectory: Bool, in root: SyncRoot) async throws {
        try await server.client.remove(try remotePath(path, in: root), recursive: isDirectory)
    }

    /// The server's SHA-256 of a file (the proposed `sha256`).
    func syncChecksum(_ path: SyncPath, in root: SyncRoot, like other: SyncChecksum?) async throws -> SyncChecksum {
        SyncChecksum(algorithm: .sha256, hex: try await server.client.sha256(try remotePath(path, in: root)).sha256)
    }

    /// Sets a file's time on the server (the proposed `mtime`).
    func setSyncTime(_ path: SyncPath, in root: SyncRoot, to mtime: Double) async throws {
        try await server.client.setModificationTime(try remotePath(path, in: root), to: mtime)
    }
}
