import FileModel
import Foundation
import Preview
import Transfer

/// The operations on any ``Location``: each goes to the location's ``Remote`` (an Officer server, default or
/// named, an S3 remote, this machine, a web address), so an app — and every command — is written once for all of
/// them, and a remote that cannot do something says so in one line (``RemoteUnavailable``).
extension OfficerFiles {
    /// The remote a location is on.
    package func remote(for location: Location) throws -> any Remote {
        switch location {
        case .local: LocalDiskRemote()
        case .officer(let path): OfficerServerRemote(server: try server(of: path))
        case .object(let path):
            try configuration.registeredRemotes[path.remote]
                ?? ObjectStoreBucketRemote(store: try objectStore(named: path.remote))
        case .url: WebAddressRemote(connection: server)
        }
    }

    /// What the remote of `location` can do whatever its server offers, without a request.
    package func fixedFeatures(of location: Location) throws -> RemoteFeatures {
        try remote(for: location).fixedFeatures
    }

    /// A folder's listing as it was last read (the cache's), without a request; nil when none is kept.
    package func cachedListing(of location: Location) -> RemoteListing? {
        try? remote(for: location).cachedListing(location)
    }

    /// What the remote of `location` can do.
    public func features(of location: Location) async throws(OfficerFilesError) -> RemoteFeatures {
        try await reporting(location) { try await remote(for: location).features() }
    }

    /// One entry: a file, a folder, a bucket.
    public func stat(_ location: Location) async throws(OfficerFilesError) -> RemoteEntry {
        try await reporting(location) { try await entry(location) }
    }

    func entry(_ location: Location) async throws -> RemoteEntry {
        let entry = try await remote(for: location).stat(location)
        // `x/` says "the folder x": a file there is not what was named.
        if location.namesFolder, !entry.isFolder { throw FrontDoorRefusal.notAFolder(location.description) }
        return entry
    }

    /// A location written as a folder must be one before anything is done to it.
    private func checkFolderForm(_ location: Location) async throws {
        if location.namesFolder { _ = try await entry(location) }
    }

    /// One folder's entries (a file lists as itself, as ls(1) lists it). An Officer listing is kept in the
    /// cache; offline, the last one seen is the answer, with the time it was made.
    public func list(_ location: Location) async throws(OfficerFilesError) -> RemoteListing {
        try await reporting(location) {
            let listing = try await remote(for: location).list(location)
            if location.namesFolder, listing.entries.count == 1, listing.entries[0].location == location,
                !listing.entries[0].isFolder
            {
                throw FrontDoorRefusal.notAFolder(location.description)
            }
            return listing
        }
    }

    /// True when a listing of `location` is kept in the cache (an Officer folder listed before), so `--offline`
    /// could show it.
    package func hasCachedListing(_ location: Location) -> Bool {
        cachedListing(of: location) != nil
    }

    /// True when the bytes of the file at `location` are kept in the cache (an Officer file read before), so
    /// `--offline` could give them.
    package func hasCachedCopy(_ location: Location) -> Bool {
        (try? remote(for: location).hasCachedCopy(location)) ?? false
    }

    /// Every entry below a folder, depth first, fetched in pages while the caller consumes them.
    public func walk(_ location: Location) -> ReportedStream<RemoteEntry> {
        do {
            let remote = try remote(for: location)
            // Made in the front door's plug-in scope: its producer task inherits it.
            let entries = PluginScope.$overrides.withValue(configuration.plugins.scope) { remote.walk(location) }
            return reportedStream(location, entries)
        } catch {
            return reportedStream(location, failing(error, location))
        }
    }

    /// Makes a folder (on S3: a bucket); `parents` makes the missing ones above and takes an existing one as done.
    @discardableResult
    public func makeFolder(_ location: Location, parents: Bool) async throws(OfficerFilesError) -> RemoteEntry {
        try await reporting(location) {
            try Location.requireStorableNames(location, all: parents)
            return try await remote(for: location).makeFolder(location, parents: parents)
        }
    }

    /// Removes a file, or a folder and everything in it with `recursive`; how many entries went. The top of a
    /// root is never removed.
    @discardableResult
    public func remove(_ location: Location, recursive: Bool) async throws(OfficerFilesError) -> Int {
        try await reporting(location) {
            if location.isTopOfRoot { throw FrontDoorRefusal.topOfRoot(location.description) }
            try await checkFolderForm(location)
            return try await remote(for: location).remove(location, recursive: recursive)
        }
    }

    /// Where a copy or move of `source` to `destination` lands, as cp(1) places it: into `destination` when it
    /// is a folder (ends with `/`, or is one now), else at that name.
    package func placement(of source: Location, at destination: Location) async throws -> Location {
        guard try await takesEntriesIn(destination) else { return destination }
        guard let target = destination.appending(source.name) else {
            throw FrontDoorRefusal.invalidValue("\(destination): cannot take \(source.name)")
        }
        return target
    }

    /// Whether what goes to `destination` goes into it, as cp(1) decides: written as a folder (ends with `/`, the
    /// top of a root) or a folder now. Only "nothing there" means "at that name"; any other failure (network, a
    /// refusal) is thrown.
    func takesEntriesIn(_ destination: Location) async throws -> Bool {
        if Self.writtenAsFolder(destination) { return true }
        do {
            return try await entry(destination).isFolder
        } catch  where ErrorCategory.of(error) == .notFound {
            return false
        }
    }

    /// Written as a folder: a trailing `/`, or the top of a root.
    static func writtenAsFolder(_ destination: Location) -> Bool {
        destination.namesFolder || destination.description.hasSuffix("/") || destination.isTopOfRoot
    }

    /// Copies inside one remote (the bytes stay there), placed as cp(1) places copies; folders with
    /// `recursive`; an existing target is replaced only with `overwrite`. Between remotes: ``sync(from:to:options:)``.
    @discardableResult
    public func copy(_ source: Location, to destination: Location, overwrite: Bool = false, recursive: Bool = false)
        async throws(OfficerFilesError) -> RemoteEntry
    {
        try await reporting(source) {
            let target = try await relocationTarget(of: source, at: destination)
            return try await remote(for: source).copy(source, to: target, overwrite: overwrite, recursive: recursive)
        }
    }

    /// Moves (or renames) inside one remote, placed as mv(1) places it; on S3 each object is copied, the copy
    /// confirmed, and only then the source removed.
    @discardableResult
    public func move(_ source: Location, to destination: Location, overwrite: Bool = false)
        async throws(OfficerFilesError) -> RemoteEntry
    {
        try await reporting(source) {
            let target = try await relocationTarget(of: source, at: destination)
            return try await remote(for: source).move(source, to: target, overwrite: overwrite)
        }
    }

    /// Where a copy or move lands, after the rules both keep: one remote, the source's folder form, cp's
    /// placement, a storable name.
    private func relocationTarget(of source: Location, at destination: Location) async throws -> Location {
        try sameRemote(source, destination)
        try await checkFolderForm(source)
        let target = try await placement(of: source, at: destination)
        try Location.requireStorableNames(target)
        return target
    }

    func sameRemote(_ source: Location, _ destination: Location) throws {
        guard source.remoteName == destination.remoteName, source.isRemote == destination.isRemote else {
            throw FrontDoorRefusal.differentRemotes(source.description, destination.description)
        }
    }

    /// Downloads a file to a local file: resumable, never over an existing file without `options.force`.
    public func download(_ location: Location, to local: URL, options: DownloadOptions = DownloadOptions())
        -> FileOperation<DownloadResult>
    {
        reported(location, download(location, toPath: local.path, options: options))
    }

    /// The same, to a path as the CLI takes it.
    package func download(_ location: Location, toPath local: String, options: DownloadOptions = DownloadOptions())
        -> TransferOperation<DownloadResult>
    {
        TransferOperation { report in
            try await self.reporting(location) {
                try await self.checkFolderForm(location)
                let operation = try self.remote(for: location).download(location, to: local, options: options)
                for await event in operation { report(event) }
                return try await operation.value
            }
        }
    }

    /// Writes a file's bytes to a descriptor (`cat`), resuming a broken connection; the bytes written.
    @discardableResult
    package func read(
        _ location: Location, to fileDescriptor: Int32, outputName: String = "<output>", bandwidthLimit: Int64? = nil
    ) async throws -> Int64 {
        try await checkFolderForm(location)
        return try await remote(for: location).read(
            location, to: fileDescriptor, outputName: outputName, bandwidthLimit: bandwidthLimit)
    }

    /// Uploads a local file to any remote, placed as cp places a copy (into a folder, else at that name):
    /// resumable where the remote allows, never over an existing file without `overwrite`, done only when the
    /// remote holds those bytes.
    public func upload(
        _ local: URL, to destination: Location, overwrite: Bool = false, options: UploadOptions = UploadOptions()
    ) -> FileOperation<UploadResult> {
        reported(destination, upload(path: local.path, to: destination, overwrite: overwrite, options: options))
    }

    /// The same, from a path as the CLI takes it.
    package func upload(
        path local: String, to destination: Location, overwrite: Bool = false, options: UploadOptions = UploadOptions()
    ) -> TransferOperation<UploadResult> {
        TransferOperation { report in
            try await self.reporting(destination) {
                try LocalFiles.requireLocalFile(local)
                let operation = try self.remote(for: destination).upload(
                    local, to: destination, overwrite: overwrite, options: options)
                for await event in operation { report(event) }
                return try await operation.value
            }
        }
    }

    /// Entries below `folder` whose names contain `text` (where the remote can search).
    public func search(_ text: String, in folder: Location) async throws(OfficerFilesError) -> RemoteSearch {
        try await reporting(folder) { try await remote(for: folder).search(text, in: folder) }
    }

    /// What a file is and how the viewer would show it, from as few bytes as its format needs (ranges on a
    /// remote, never the whole file).
    public func facts(of location: Location) async throws(OfficerFilesError) -> FileFacts {
        try await reporting(location) {
            try await checkFolderForm(location)
            return try await remote(for: location).facts(of: location)
        }
    }
}
