import FileModel
import Foundation
import HTTP
import Preview
import Transfer

/// One kind of place files live, behind one protocol (rclone's `fs.Fs`): the Officer server, an S3 bucket, this
/// machine's disk and a plain web address implement it and declare their ``RemoteFeatures``; the front door's
/// location operations, and through them every command, are written once over it. What a kind cannot do keeps
/// the default here, which says so in one line (``RemoteUnavailable``).
package protocol Remote: Sendable {
    /// How messages name the kind: "an Officer server", "an S3 remote", "this machine", "a web address".
    var kind: String { get }
    /// What this remote can do (an Officer server's depends on what it offers, learnt once).
    func features() async -> RemoteFeatures
    /// What it can do whatever its server offers, known without a request (a command deciding how to start).
    var fixedFeatures: RemoteFeatures { get }

    /// One entry.
    func stat(_ location: Location) async throws -> RemoteEntry
    /// One folder's entries (a file lists as itself).
    func list(_ location: Location) async throws -> RemoteListing
    /// True when a folder's listing comes whole in one answer (an Officer server, this machine), so paging
    /// through it keeps that answer; false where the remote lists in pages of its own (S3).
    var listsWhole: Bool { get }
    /// Every entry below a folder, depth first, fetched while the caller consumes them.
    func walk(_ location: Location) -> AsyncThrowingStream<RemoteEntry, any Error>
    /// One folder's entries in name order (byte order), fetched while the caller consumes them where the remote
    /// lists in pages (S3); the default sorts ``list(_:)``'s answer (the Officer API answers a folder whole).
    func streamedListing(_ location: Location) -> AsyncThrowingStream<RemoteEntry, any Error>
    /// A folder's page of at most `size` entries after the name `cursor`, where the remote serves pages itself
    /// (an Officer server offering the proposed paging of `ls`): one request a page; nil where it does not, and
    /// the front door pages ``list(_:)`` or ``streamedListing(_:)``.
    func listingPage(_ location: Location, size: Int, after cursor: String?) async throws -> ListingPage?
    /// Makes a folder (`parents`: and the missing ones above it; an existing folder is then fine).
    func makeFolder(_ location: Location, parents: Bool) async throws -> RemoteEntry
    /// Removes a file, or a folder with `recursive`; how many entries went.
    func remove(_ location: Location, recursive: Bool) async throws -> Int
    /// Copies inside the remote to exactly `destination` (placement is decided before).
    func copy(_ source: Location, to destination: Location, overwrite: Bool, recursive: Bool) async throws
        -> RemoteEntry
    /// Moves inside the remote to exactly `destination`.
    func move(_ source: Location, to destination: Location, overwrite: Bool) async throws -> RemoteEntry
    /// Downloads a file to a local path, resumable where the remote allows.
    func download(_ location: Location, to local: String, options: DownloadOptions) -> TransferOperation<DownloadResult>
    /// Writes a file's bytes to a descriptor.
    func read(_ location: Location, to fileDescriptor: Int32, outputName: String, bandwidthLimit: Int64?) async throws
        -> Int64
    /// What a file is, from as few bytes as its format needs.
    func facts(of location: Location) async throws -> FileFacts
    /// Uploads a local file to `destination`, placed as cp places a copy (into a folder, else that name),
    /// resumable where the remote allows; an existing file is replaced only with `overwrite`; done when the
    /// remote holds those bytes.
    func upload(_ local: String, to destination: Location, overwrite: Bool, options: UploadOptions)
        -> TransferOperation<UploadResult>
    /// Uploads a stream of unknown length (a pipe) to `destination`, exactly there; done when the remote holds
    /// those bytes.
    func upload(
        stream: some AsyncSequence<Data, any Error> & Sendable, label: String, to destination: Location,
        request: UploadRequest
    ) -> TransferOperation<UploadResult>
    /// Entries below a folder whose names contain `text`.
    func search(_ text: String, in folder: Location) async throws -> RemoteSearch
    /// A JPEG thumbnail of a file, longest edge at most `size`, and where it came from.
    func thumbnail(_ location: Location, size: Int) async throws -> Thumbnail
    /// What the server's AI actions take for a file here (an Officer file as it is, a local one sent first).
    func actionTarget(_ location: Location) throws -> ActionTarget
    /// Keeps a file in the local cache for offline use (`true`), or lets it be evicted again (`false`).
    func setKeptOffline(_ location: Location, _ kept: Bool) async throws -> PinOutcome?
    // What a sync needs (``RemoteSyncSide``), with defaults over the operations above (Remote+Sync.swift).

    /// The root as messages name it.
    func syncDescription(_ root: SyncRoot) -> String
    /// True for this machine's disk: a sync reads from it and writes into it in place instead of staging.
    var isLocalDisk: Bool { get }
    /// True where a folder exists as soon as anything is written inside it (an object store's prefix).
    var impliesFolders: Bool { get }
    /// What this remote's answers say of the link (round trip, answers asking to slow down); nil for the local disk.
    var linkMeter: LinkMeter? { get }
    /// Every entry below the root, depth first with siblings in UTF-8 byte order, fetched as it is consumed;
    /// an unsafe name comes as a refusal; a missing root lists as empty with `missingRootIsEmpty`; problems that
    /// skip an entry go to `onProblem` (`true`: one that blocks deletions).
    func syncListing(
        _ root: SyncRoot, missingRootIsEmpty: Bool, onProblem: @escaping @Sendable (SyncPath, String, Bool) -> Void
    ) -> any SyncRemoteIterator
    /// Fails when the root is not a folder, or does not exist and `mustExist`.
    func checkSyncRoot(_ root: SyncRoot, mustExist: Bool) async throws
    /// Makes a folder below the root (the root itself for `.root`); an existing one is fine.
    func makeSyncFolder(_ path: SyncPath, in root: SyncRoot) async throws
    /// Writes a local file to `path` with the time `mtime`, replacing what is there; resumable where it can be.
    func syncUpload(
        _ local: String, to path: SyncPath, in root: SyncRoot, mtime: Double,
        onProgress: @escaping @Sendable (Int64) -> Void) async throws
    /// Fetches `item` (its size, and its version where the listing gave one) to a local file, checked; what it was
    /// checked against, and the exact time of the version fetched where the answer carried one.
    func syncDownload(
        _ item: SyncItem, in root: SyncRoot, to local: String,
        onProgress: @escaping @Sendable (Int64) -> Void
    ) async throws -> SyncFetched
    /// Removes a file, or a folder with everything in it.
    func syncDelete(_ path: SyncPath, isDirectory: Bool, in root: SyncRoot) async throws
    /// A hash of the file's content the remote gives without sending it, made like `other` where it can choose.
    func syncChecksum(_ path: SyncPath, in root: SyncRoot, like other: SyncChecksum?) async throws -> SyncChecksum
    /// Sets a file's time.
    func setSyncTime(_ path: SyncPath, in root: SyncRoot, to mtime: Double) async throws
    /// The item with its exact time, for a listed item whose ``SyncItem/isTimeExact`` is false.
    func exactItem(_ item: SyncItem, in root: SyncRoot) async throws -> SyncItem
    /// The item as this remote would keep it (the local disk clamps times it cannot hold).
    func storable(_ item: SyncItem, in root: SyncRoot) -> SyncItem
    /// Throws what sending `item` would (a dry run's check).
    func checkSendable(_ item: SyncItem, in root: SyncRoot) async throws
    /// The file on this machine to send for `item` when the remote has one of its own (the local disk); nil
    /// for one fetched into staging first.
    func ownFileToSend(_ item: SyncItem, in root: SyncRoot) async throws -> SyncSentFile?
    /// Writes `item` from `source` in place, replacing `seen` (what the plan saw here), where the remote does
    /// that (the local disk); nil for the source's file uploaded.
    func receiveInPlace(
        _ item: SyncItem, replacing seen: SyncItem?, from source: any SyncRemote, in root: SyncRoot,
        onProgress: @escaping @Sendable (Int64) -> Void
    ) async throws -> SyncReceived?
    /// Told of each change a sync made below `location` here (a remote that keeps listings forgets them).
    func synced(_ action: SyncAction, below location: Location)
    /// Told that a push from the local folder `localRoot` to `location` ended: an upload the journal still keeps
    /// for a file of that folder whose destination already holds it (a run killed after the store completed it)
    /// is forgotten, its parts given back.
    func settleUploads(from localRoot: String, to location: Location) async
    /// Where the files of one upload go when this remote places a batch itself (an Officer server by one listing,
    /// a tus creation URL); nil places them as a copy is placed (see ``OfficerFiles/planUpload(of:to:request:queueing:)``).
    func uploadRoute(of locals: [String], to destination: Location, request: UploadRequest, queueing: Bool)
        async throws -> UploadPlan.Route?
    /// One zip of several files and folders, made by the remote, downloaded like one file.
    func downloadZip(of locations: [Location], to local: String, options: DownloadOptions)
        -> TransferOperation<DownloadResult>
    /// The folder's listing as it was last read, without a request; nil when none is kept.
    func cachedListing(_ location: Location) throws -> RemoteListing?
    /// True when the file's bytes are kept in the cache (read before), so an offline read could give them.
    func hasCachedCopy(_ location: Location) -> Bool
    /// Where an archive's bytes are read from: a file here, or ranges of the remote's file.
    func archiveBytes(_ location: Location) async throws -> ArchiveBytes
}

extension Remote {
    package var fixedFeatures: RemoteFeatures { [] }
    package var listsWhole: Bool { true }

    /// The front door pages the listing.
    package func listingPage(_ location: Location, size: Int, after cursor: String?) async throws -> ListingPage? {
        nil
    }

    /// Placed as a copy is, by the front door.
    package func uploadRoute(of locals: [String], to destination: Location, request: UploadRequest, queueing: Bool)
        async throws -> UploadPlan.Route?
    { nil }

    func unavailable(_ what: String, _ location: Location) -> RemoteUnavailable {
        RemoteUnavailable(location: location, kind: kind, what: what)
    }

    package func stat(_ location: Location) async throws -> RemoteEntry {
        throw unavailable("looking at entries", location)
    }
    package func facts(of location: Location) async throws -> FileFacts {
        throw unavailable("reading file facts", location)
    }
    package func list(_ location: Location) async throws -> RemoteListing {
        throw unavailable("listing folders", location)
    }
    package func upload(_ local: String, to destination: Location, overwrite: Bool, options: UploadOptions)
        -> TransferOperation<UploadResult>
    {
        TransferOperation { _ in throw unavailable("uploading", destination) }
    }
    package func upload(
        stream: some AsyncSequence<Data, any Error> & Sendable, label: String, to destination: Location,
        request: UploadRequest
    ) -> TransferOperation<UploadResult> {
        TransferOperation { _ in throw unavailable("uploading a stream", destination) }
    }
    package func search(_ text: String, in folder: Location) async throws -> RemoteSearch {
        throw unavailable("searching", folder)
    }
    package func thumbnail(_ location: Location, size: Int) async throws -> Thumbnail {
        throw unavailable("making thumbnails", location)
    }
    package func actionTarget(_ location: Location) throws -> ActionTarget {
        throw unavailable("the server's AI actions", location)
    }
    package func cachedListing(_ location: Location) throws -> RemoteListing? { nil }
    package func hasCachedCopy(_ location: Location) -> Bool { false }
    package func synced(_ action: SyncAction, below location: Location) {}
    package func settleUploads(from localRoot: String, to location: Location) async {}
    package func downloadZip(of locations: [Location], to local: String, options: DownloadOptions)
        -> TransferOperation<DownloadResult>
    {
        TransferOperation { _ in throw unavailable("a zip of several files", locations[0]) }
    }
    package func archiveBytes(_ location: Location) async throws -> ArchiveBytes {
        throw unavailable("reading archives", location)
    }
    package func setKeptOffline(_ location: Location, _ kept: Bool) async throws -> PinOutcome? {
        throw unavailable("keeping files for offline use", location)
    }
    package func download(_ location: Location, to local: String, options: DownloadOptions) -> TransferOperation<
        DownloadResult
    > {
        TransferOperation { _ in throw unavailable("downloading", location) }
    }
    package func read(_ location: Location, to fileDescriptor: Int32, outputName: String, bandwidthLimit: Int64?)
        async throws -> Int64
    {
        throw unavailable("reading", location)
    }
    package func streamedListing(_ location: Location) -> AsyncThrowingStream<RemoteEntry, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let listing = try await list(location)
                    for entry in listing.entries.sorted(by: { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }) {
                        continuation.yield(entry)
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    package func walk(_ location: Location) -> AsyncThrowingStream<RemoteEntry, any Error> {
        AsyncThrowingStream { $0.finish(throwing: unavailable("listing folders", location)) }
    }
    package func makeFolder(_ location: Location, parents: Bool) async throws -> RemoteEntry {
        throw unavailable("making folders", location)
    }
    package func remove(_ location: Location, recursive: Bool) async throws -> Int {
        throw unavailable("removing files", location)
    }
    package func copy(_ source: Location, to destination: Location, overwrite: Bool, recursive: Bool) async throws
        -> RemoteEntry
    {
        throw unavailable("copying", source)
    }
    package func move(_ source: Location, to destination: Location, overwrite: Bool) async throws -> RemoteEntry {
        throw unavailable("moving", source)
    }
}

extension AsyncThrowingStream where Failure == any Error {
    /// Each element of `source` transformed, consumed while the caller consumes these; ending the stream stops the
    /// source (a remote's walk turned into ``RemoteEntry``s).
    static func mapping<Source: AsyncSequence & Sendable>(
        _ source: Source, _ transform: @escaping @Sendable (Source.Element) -> Element
    ) -> Self where Element: Sendable {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await element in source { continuation.yield(transform(element)) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// What a remote cannot do, said plainly: "backup:photos/a.jpg: an S3 remote; searching is not available".
package struct RemoteUnavailable: Error, Equatable, Sendable, CustomStringConvertible, CategorizedError {
    /// What was asked of.
    package var location: Location
    /// The kind of remote it is on.
    package var kind: String
    /// What it cannot do.
    package var what: String

    /// Creates the refusal.
    package init(location: Location, kind: String, what: String) {
        self.location = location
        self.kind = kind
        self.what = what
    }

    /// One line.
    package var description: String {
        let name = location.remoteName.map { "\($0) is \(kind)" } ?? "this is \(kind)"
        return "\(location): \(name); \(what) is not available there"
    }

    /// A refusal (exit 9): asking again will not help.
    package var category: ErrorCategory { .refused }
}

/// What a search found.
public struct RemoteSearch: Sendable, Equatable, Encodable {
    /// The folder searched.
    public var path: String
    /// The query as the remote understood it.
    public var query: String
    /// The matches.
    public var results: [RemoteEntry]
    /// True when the remote stopped at its result limit.
    public var truncated: Bool
}
