import FileModel
import Foundation
import HTTP
import Journal
import Transfer

/// ``SyncRemote`` over an Officer server: the paged tree listing, tus uploads, segmented downloads.
package struct OfficerSyncRemote: SyncRemote {
    /// The client.
    package let client: OfficerClient
    /// The remote folder synced.
    package let base: RemotePath
    private let uploader: TusUploader
    private let downloader: SegmentedDownloader
    private let journal: TransferJournal?
    /// Entries per listing page.
    package var pageSize = 1000

    /// A remote for `base`; the journal lets interrupted large transfers resume on the next run, and `endpoints`
    /// (the front door's) keeps what its upload endpoint was found to offer, so repeated syncs (a watcher's) ask once.
    package init(
        client: OfficerClient, base: RemotePath, journal: TransferJournal?,
        endpoints: UploadEndpoints = UploadEndpoints()
    ) {
        self.client = client
        self.base = base
        uploader = TusUploader.describingFiles(
            http: client.http, journal: journal, server: client, endpoints: endpoints)
        downloader = SegmentedDownloader(http: client.http, journal: journal)
        self.journal = journal
    }

    /// What a remembered time is keyed by besides the path: the size and the time the server keeps of the file.
    static func storedVersion(mtime: Double) -> String { "officer-mtime:\(mtime)" }

    /// `officer:ROOT:/path`.
    package var description: String { base.description }

    func remotePath(_ path: SyncPath) throws -> RemotePath {
        var result = base
        for component in path.components { result = try result.appending(component) }
        return result
    }

    /// The tree below the root, paged where the server offers `tree`, folder by folder otherwise.
    package func makeIterator(missingRootIsEmpty: Bool) -> any SyncRemoteIterator {
        OfficerTreeIterator(
            client: client, base: base, pageSize: pageSize, missingRootIsEmpty: missingRootIsEmpty, journal: journal)
    }

    /// Makes a folder on the server.
    package func makeDirectory(_ path: SyncPath) async throws {
        do {
            _ = try await client.makeDirectory(try remotePath(path), parents: true)
        } catch OfficerError.conflict {
            // Already there.
        }
    }

    /// Uploads a local file (resumably) with its time.
    package func upload(
        _ localFile: String, to path: SyncPath, mtime: Double, onProgress: @escaping @Sendable (Int64) -> Void
    ) async throws {
        let folder = try remotePath(SyncPath(Array(path.components.dropLast())))
        let target = try client.uploadTarget(name: path.name, into: folder, mtime: mtime, overwrite: true)
        let result: UploadResult
        do {
            result = try await uploader.upload(file: localFile, to: target) { event in
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
    package func download(
        _ path: SyncPath, size: Int64, to localFile: String, onProgress: @escaping @Sendable (Int64) -> Void
    ) async throws -> SyncFetched {
        let remote = try remotePath(path)
        var options = DownloadOptions()
        options.force = true
        options.preserveModificationTime = false
        options.knownLength = size
        let progress = DownloadProgressSum()
        let result: DownloadResult
        do {
            result = try await client.checkedDownload(remote, with: downloader, to: localFile, options: options) {
                event in
                if case .progress(let segment, let done) = event {
                    onProgress(progress.update(segment: segment, done: done))
                }
            }
        } catch {
            throw client.signInNeeded(after: error)
        }
        // The listing's times are the server's own: exact already.
        return SyncFetched(checked: result.checkedBy)
    }

    /// Checks the root folder (and that it exists where it must).
    package func checkRoot(mustExist: Bool) async throws {
        if try await !client.folderExists(base), mustExist {
            throw OfficerError.notFound(request: "sync", message: "\(base): no such folder")
        }
    }

    /// Removes a file or folder on the server.
    package func delete(_ path: SyncPath, isDirectory: Bool) async throws {
        try await client.remove(try remotePath(path), recursive: isDirectory)
    }

    /// The server's SHA-256 of a file.
    package func sha256(_ path: SyncPath) async throws -> String {
        try await client.sha256(try remotePath(path)).sha256
    }

    /// Sets a file's time on the server (the proposed `mtime`).
    package func setModificationTime(_ path: SyncPath, to mtime: Double) async throws {
        try await client.setModificationTime(try remotePath(path), to: mtime)
    }
}

/// Sums per-range progress into bytes of the whole file.
final class DownloadProgressSum: Sendable {
    private let done = LockedValue<[Int: Int64]>([:])
    func update(segment: Int, done value: Int64) -> Int64 {
        done.withLock { done in
            done[segment] = value
            return done.values.reduce(0, +)
        }
    }
}

/// Reads the tree a page at a time, fetching the next page while the current one is consumed: at most two
/// pages in memory whatever the size of the tree.
actor OfficerTreeIterator: SyncRemoteIterator {
    private let client: OfficerClient
    private let base: RemotePath
    private let pageSize: Int
    private var page: [FileEntry] = []
    private var index = 0
    private var nextPage: Task<TreePage, any Error>?
    private var finished = false
    private let missingRootIsEmpty: Bool
    private var first = true

    /// The journal, when it remembers times for this root of the server (nil: no entry is looked up).
    private let journal: TransferJournal?

    init(
        client: OfficerClient, base: RemotePath, pageSize: Int, missingRootIsEmpty: Bool,
        journal: TransferJournal? = nil
    ) {
        nextPage = Self.fetch(client: client, base: base, pageSize: pageSize, cursor: nil)
        self.client = client
        self.base = base
        self.pageSize = pageSize
        self.missingRootIsEmpty = missingRootIsEmpty
        // Only a server that kept its own times has any remembered: without one, no entry is looked up.
        self.journal =
            (try? journal?.hasObjectTimes(endpoint: client.server, bucket: base.root)) == true ? journal : nil
    }

    /// The time that stands for an entry: the one sent with it, when the server kept its own and the journal
    /// remembers the pair for this size and server time; else the server's.
    private func time(of entry: FileEntry) -> Double {
        guard !entry.isDirectory, let journal,
            let known = try? journal.objectTime(endpoint: client.server, bucket: base.root, key: entry.path),
            known.size == entry.size, known.etag == OfficerSyncRemote.storedVersion(mtime: entry.mtime)
        else { return entry.mtime }
        return known.mtime
    }

    deinit { nextPage?.cancel() }

    private static func fetch(client: OfficerClient, base: RemotePath, pageSize: Int, cursor: String?) -> Task<
        TreePage, any Error
    > {
        Task { try await client.tree(base, cursor: cursor, limit: pageSize) }
    }

    func next() async throws -> Result<SyncItem, SyncNameError>? {
        while index >= page.count {
            guard !finished, let pending = nextPage else { return nil }
            let fetched: TreePage
            do {
                fetched = try await pending.value
            } catch OfficerError.notFound where first && missingRootIsEmpty {
                finished = true
                return nil
            }
            first = false
            page = fetched.entries
            index = 0
            if let cursor = fetched.nextCursor {
                nextPage = Self.fetch(client: client, base: base, pageSize: pageSize, cursor: cursor)
            } else {
                nextPage = nil
                finished = true
            }
        }
        let entry = page[index]
        index += 1
        // The server's links are its own business (it never follows one out of its root); a sync leaves them alone.
        if entry.type == .symlink { return try await next() }
        return SyncPath.relative(entryPath: entry.path, name: entry.name, below: base.path).map { path in
            SyncItem(
                path: path, kind: entry.isDirectory ? .directory : .file, size: entry.isDirectory ? 0 : entry.size,
                mtime: time(of: entry))
        }
    }
}
