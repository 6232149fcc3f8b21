import FileModel
import Foundation
import HTTP
import Preview
import Transfer

/// An Officer server as a ``Remote``: its ``OfficerServer`` (the default one, or a named remote's) does the work
/// with every rule it keeps (the cache, offline answers, the seed's endpoints and the proposals where offered).
struct OfficerServerRemote: Remote {
    let server: OfficerServer

    var kind: String { "an Officer server" }

    /// The seed's endpoints give most; the proposals add resumable uploads, times, checksums, trees, jobs and
    /// thumbnails where the server offers them (learnt once, never assumed).
    var fixedFeatures: RemoteFeatures {
        [
            .writable, .serverSideCopy, .serverSideMove, .ranges, .zipOfMany, .search, .serverWork, .queuedWrites,
            .cached,
        ]
    }

    /// The server's requests' meter.
    var linkMeter: LinkMeter? { (try? server.client)?.http.configuration.linkMeter }

    func features() async -> RemoteFeatures {
        var features = fixedFeatures
        guard let client = try? server.client else { return features }
        if await client.knownOffer(.tus) != false { features.insert(.resumableUploads) }
        if await client.knownOffer(.mtime) != false { features.insert(.settableTimes) }
        if await client.knownOffer(.sha256) == true { features.insert(.sha256) }
        if await client.knownOffer(.tree) == true { features.insert(.recursiveListing) }
        let named = await server.serverFeatures()
        if named.contains("jobs") { features.insert(.jobs) }
        if named.contains("thumbnail") { features.insert(.thumbnails) }
        return features
    }

    func path(_ location: Location) throws -> RemotePath {
        guard case .officer(let path) = location else {
            throw FrontDoorRefusal.invalidValue("\(location): not an Officer path")
        }
        return path
    }

    func thumbnail(_ location: Location, size: Int) async throws -> Thumbnail {
        try await server.thumbnail(of: try path(location), size: size)
    }

    func actionTarget(_ location: Location) throws -> ActionTarget { .remote(try path(location)) }

    func archiveBytes(_ location: Location) async throws -> ArchiveBytes {
        try await server.archiveBytes(try path(location))
    }

    func setKeptOffline(_ location: Location, _ kept: Bool) async throws -> PinOutcome? {
        if kept { return try await server.pin(try path(location)) }
        try server.unpin(try path(location))
        return nil
    }

    /// The entry at `path` in the user's terms (on the same named remote). A name with a control character is
    /// named as listed (it was the root's top, so a pattern matching it named the top).
    static func entry(_ entry: FileEntry, root: String, remote: String?) -> RemoteEntry {
        let path =
            (try? RemotePath(listed: entry.path, root: root, remote: remote))
            ?? (try? RemotePath(root: root, path: "/", remote: remote))!
        let kind: RemoteEntry.Kind =
            switch entry.type {
            case .directory: .directory
            case .symlink: .symlink
            case .file: .file
            }
        return RemoteEntry(
            location: .officer(path), name: entry.name.isEmpty ? path.name : entry.name, kind: kind, size: entry.size,
            mtime: entry.mtime,
            mode: entry.mode, mime: entry.mime)
    }

    func stat(_ location: Location) async throws -> RemoteEntry {
        let path = try path(location)
        return Self.entry(try await server.stat(path), root: path.root, remote: path.remote)
    }

    /// The batch placed once by the server's listing (folders made with `createMissing`), each file's target
    /// then made without a request; when the server cannot be reached and the changes are to be kept, a kept
    /// route placed as the queue will have the server.
    func uploadRoute(of locals: [String], to destination: Location, request: UploadRequest, queueing: Bool)
        async throws -> UploadPlan.Route?
    {
        let path = try path(destination)
        let keeps = queueing && fixedFeatures.contains(.queuedWrites)
        // The server's tus answer is asked while the destination is placed: the first upload would wait a round
        // trip for it after.
        var asking: Task<Void, Never>?
        if !server.isOffline, let client = try? server.client, client.offers.offers(.tus) != false,
            let uploader = try? server.uploader(),
            let target = try? client.uploadTarget(name: "-", into: path, mtime: nil, overwrite: false)
        {
            asking = Task { _ = try? await uploader.discover(target) }
        }
        do {
            if keeps, server.isOffline { throw FrontDoorRefusal.needsNetwork(destination.description) }
            let placement = try await server.uploadPlacement(of: path, several: locals.count > 1, request: request)
            return .targets(.officer(placement), on: server)
        } catch {
            asking?.cancel()
            guard keeps && server.queues(after: error) else { throw error }
            let intoFolder = try locals.count > 1 || server.queuedDestinationIsFolder(path)
            return .kept(destination, intoFolder: intoFolder)
        }
    }

    func synced(_ action: SyncAction, below location: Location) {
        if let base = try? path(location) { server.forgetCachedListings(after: action, below: base) }
    }

    func downloadZip(of locations: [Location], to local: String, options: DownloadOptions)
        -> TransferOperation<DownloadResult>
    {
        do {
            return server.downloadZip(of: try locations.map(path), to: local, options: options)
        } catch {
            return TransferOperation { _ in throw error }
        }
    }

    func hasCachedCopy(_ location: Location) -> Bool {
        guard let path = try? path(location) else { return false }
        return server.hasCachedCopy(path)
    }

    func cachedListing(_ location: Location) throws -> RemoteListing? {
        let path = try path(location)
        guard let cached = try server.cachedListing(path) else { return nil }
        return RemoteListing(
            location: location,
            entries: cached.listing.entries.map { Self.entry($0, root: path.root, remote: path.remote) },
            listedAt: cached.listedAt)
    }

    func list(_ location: Location) async throws -> RemoteListing {
        let path = try path(location)
        if server.isOffline {
            guard let cached = try cachedListing(location) else { throw FrontDoorRefusal.notCachedOffline(path) }
            return cached
        }
        let listed: Result<DirectoryListing, any Error>
        do { listed = .success(try await server.list(path)) } catch { listed = .failure(error) }
        switch listed {
        case .success(let listing):
            return RemoteListing(
                location: location,
                entries: listing.entries.map { Self.entry($0, root: path.root, remote: path.remote) })
        case .failure(OfficerError.badRequest(_, _, "not_a_directory")):
            // Like ls(1): naming a file lists just that file.
            return RemoteListing(location: location, entries: [try await stat(location)])
        case .failure(let error):
            // The server cannot be reached: the last listing, marked with its time, where the app wants it.
            guard ErrorCategory.of(error) == .network, server.configuration.listsFromCacheWhenUnreachable,
                let cached = try? cachedListing(location)
            else { throw error }
            return cached
        }
    }

    /// One page a request where the server offers paging (named among its features), online. A server that
    /// answers the whole folder all the same is not asked for pages again; this page is cut from that answer.
    func listingPage(_ location: Location, size: Int, after cursor: String?) async throws -> ListingPage? {
        guard let path = try? path(location), !server.isOffline, let client = try? server.client,
            await client.knownOffer(.pages) == true
        else { return nil }
        let size = max(1, size)
        let asked: Result<DirectoryPage, OfficerError>
        do { asked = .success(try await client.listPage(path, limit: size, after: cursor)) } catch {
            asked = .failure(error)
        }
        // Unreachable: the front door's whole listing answers (the cached one, where the app wants it).
        if case .failure(let error) = asked, ErrorCategory.of(error) == .network { return nil }
        let answer = try asked.get()
        let entries = answer.entries.map { Self.entry($0, root: path.root, remote: path.remote) }
        guard answer.isPaged else {
            client.offers.learn(.pages, offered: false)
            let sorted = entries.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            return PageCutter.pages(of: sorted, size: size, after: cursor).first
                ?? ListingPage(entries: [], cursor: nil)
        }
        // A cursor that does not move forward would page for ever: the server's error, at once.
        if let next = answer.nextCursor,
            entries.isEmpty || cursor.map({ !$0.utf8.lexicographicallyPrecedes(next.utf8) }) == true
        {
            throw OfficerError.malformedResponse(
                request: "ls \(path)", detail: "the next page's cursor \(next) does not follow \(cursor ?? "the start")"
            )
        }
        return ListingPage(entries: entries, cursor: answer.nextCursor)
    }

    func walk(_ location: Location) -> AsyncThrowingStream<RemoteEntry, any Error> {
        guard let path = try? path(location) else {
            return AsyncThrowingStream { $0.finish(throwing: unavailable("listing", location)) }
        }
        let entries = server.walk(path)
        return .mapping(entries) { entry in Self.entry(entry, root: path.root, remote: path.remote) }
    }

    func makeFolder(_ location: Location, parents: Bool) async throws -> RemoteEntry {
        let path = try path(location)
        return Self.entry(try await server.makeFolder(path, parents: parents), root: path.root, remote: path.remote)
    }

    func remove(_ location: Location, recursive: Bool) async throws -> Int {
        try await server.remove(try path(location), recursive: recursive)
    }

    func copy(_ source: Location, to destination: Location, overwrite: Bool, recursive: Bool) async throws
        -> RemoteEntry
    {
        let (from, to) = (try path(source), try path(destination))
        if !recursive, try await server.stat(from).isDirectory {
            throw FrontDoorRefusal.copyNeedsRecursive(from.description)
        }
        return Self.entry(try await server.copy(from, to: to, overwrite: overwrite), root: to.root, remote: to.remote)
    }

    func move(_ source: Location, to destination: Location, overwrite: Bool) async throws -> RemoteEntry {
        let (from, to) = (try path(source), try path(destination))
        return Self.entry(try await server.move(from, to: to, overwrite: overwrite), root: to.root, remote: to.remote)
    }

    func download(_ location: Location, to local: String, options: DownloadOptions) -> TransferOperation<DownloadResult>
    {
        do {
            return server.download(try path(location), to: local, options: options)
        } catch {
            return TransferOperation { _ in throw error }
        }
    }

    func read(_ location: Location, to fileDescriptor: Int32, outputName: String, bandwidthLimit: Int64?) async throws
        -> Int64
    {
        try await server.read(
            try path(location), to: fileDescriptor, outputName: outputName, bandwidthLimit: bandwidthLimit
        ).bytes
    }

    func facts(of location: Location) async throws -> FileFacts { try await server.facts(of: try path(location)) }

    func upload(_ local: String, to destination: Location, overwrite: Bool, options: UploadOptions)
        -> TransferOperation<UploadResult>
    {
        do {
            var request = UploadRequest()
            request.overwrite = overwrite
            request.options = options
            return server.upload(local, to: try path(destination), request: request)
        } catch {
            return TransferOperation { _ in throw error }
        }
    }

    func upload(
        stream: some AsyncSequence<Data, any Error> & Sendable, label: String, to destination: Location,
        request: UploadRequest
    ) -> TransferOperation<UploadResult> {
        do {
            return server.upload(stream: stream, label: label, to: try path(destination), request: request)
        } catch {
            return TransferOperation { _ in throw error }
        }
    }

    func search(_ text: String, in folder: Location) async throws -> RemoteSearch {
        let path = try path(folder)
        let response = try await server.search(text, in: path)
        return RemoteSearch(
            path: folder.description, query: response.query,
            results: response.results.map { Self.entry($0, root: path.root, remote: path.remote) },
            truncated: response.truncated)
    }
}
