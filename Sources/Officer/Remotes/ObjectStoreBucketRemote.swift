import FileModel
import Foundation
import Preview
import Transfer

/// An S3-compatible remote as a ``Remote``: buckets are its top folders, `/` in keys its folders.
struct ObjectStoreBucketRemote: Remote {
    let store: ObjectStore

    var kind: String { "an S3 remote" }

    /// Multipart uploads resume by the parts the store has; copies and moves stay in the store (a move is a
    /// confirmed copy, then the source removed); times are kept in the object's metadata.
    func features() async -> RemoteFeatures {
        [.writable, .resumableUploads, .serverSideCopy, .serverSideMove, .settableTimes, .recursiveListing, .ranges]
    }

    func path(_ location: Location) throws -> ObjectStorePath {
        guard case .object(let path) = location else {
            throw FrontDoorRefusal.invalidValue("\(location): not an S3 path")
        }
        return path
    }

    func settleUploads(from localRoot: String, to location: Location) async {
        guard let base = try? path(location), let journal = store.journal,
            let uploads = try? journal.objectUploads()
        else { return }
        let folder = URL(fileURLWithPath: localRoot).standardizedFileURL.path + "/"
        let prefix = base.key.isEmpty || base.key.hasSuffix("/") ? base.key : base.key + "/"
        let uploader = store.uploader
        for upload in uploads
        where upload.endpoint == store.client.endpoint.url && upload.bucket == base.bucket
            && upload.objectKey.hasPrefix(prefix) && upload.localPath.hasPrefix(folder)
        {
            await uploader.forgetIfStored(upload)
        }
    }

    static func entry(_ entry: ObjectEntry) -> RemoteEntry {
        let kind: RemoteEntry.Kind = entry.path.isBucket ? .bucket : entry.isFolder ? .directory : .file
        return RemoteEntry(
            location: .object(entry.path), name: entry.path.name, kind: kind, size: entry.size, mtime: entry.mtime,
            mime: entry.contentType,
            etag: entry.etag, sha256: entry.sha256)
    }

    func stat(_ location: Location) async throws -> RemoteEntry { Self.entry(try await store.stat(try path(location))) }

    func list(_ location: Location) async throws -> RemoteListing {
        var entries: [RemoteEntry] = []
        for try await entry in store.list(try path(location)) { entries.append(Self.entry(entry)) }
        return RemoteListing(location: location, entries: entries)
    }

    /// S3 lists in pages of its own.
    var listsWhole: Bool { false }

    /// S3 lists in pages of keys in byte order (each page's folders merged into it): the entries come as the
    /// pages do, the first before the last is fetched.
    func streamedListing(_ location: Location) -> AsyncThrowingStream<RemoteEntry, any Error> {
        guard let path = try? path(location) else {
            return AsyncThrowingStream { $0.finish(throwing: unavailable("listing", location)) }
        }
        return .mapping(store.list(path)) { entry in Self.entry(entry) }
    }

    func walk(_ location: Location) -> AsyncThrowingStream<RemoteEntry, any Error> {
        guard let path = try? path(location) else {
            return AsyncThrowingStream { $0.finish(throwing: unavailable("listing", location)) }
        }
        let entries = store.list(path, recursive: true)
        return .mapping(entries) { entry in Self.entry(entry) }
    }

    /// Buckets only: S3 has no folders to make (they exist by the objects in them).
    func makeFolder(_ location: Location, parents: Bool) async throws -> RemoteEntry {
        let path = try path(location)
        try await store.makeBucket(path, existingIsFine: parents)
        return RemoteEntry(location: location, name: path.name, kind: .bucket)
    }

    func remove(_ location: Location, recursive: Bool) async throws -> Int {
        try await store.remove(try path(location), recursive: recursive)
    }

    func copy(_ source: Location, to destination: Location, overwrite: Bool, recursive: Bool) async throws
        -> RemoteEntry
    {
        let done = try await store.relocate(
            try path(source), toExactly: try path(destination), overwrite: overwrite, recursive: recursive,
            removing: false)
        return try await stat(.object(done.target))
    }

    func move(_ source: Location, to destination: Location, overwrite: Bool) async throws -> RemoteEntry {
        let done = try await store.relocate(
            try path(source), toExactly: try path(destination), overwrite: overwrite, recursive: true, removing: true)
        return try await stat(.object(done.target))
    }

    func download(_ location: Location, to local: String, options: DownloadOptions) -> TransferOperation<DownloadResult>
    {
        do {
            return store.download(try path(location), to: local, options: options)
        } catch {
            return TransferOperation { _ in throw error }
        }
    }

    func read(_ location: Location, to fileDescriptor: Int32, outputName: String, bandwidthLimit: Int64?) async throws
        -> Int64
    {
        try await store.stream(
            try path(location), to: fileDescriptor, outputName: outputName, bandwidthLimit: bandwidthLimit)
    }

    /// The object's facts; no server actions are offered for it (OCR, speech and the rest run on an Officer server's
    /// files and on local ones, not on objects in a store).
    func facts(of location: Location) async throws -> FileFacts {
        var facts = try await store.facts(of: try path(location))
        facts.type.actions = []
        return facts
    }

    func upload(_ local: String, to destination: Location, overwrite: Bool, options: UploadOptions)
        -> TransferOperation<UploadResult>
    {
        do {
            return store.upload(local, to: try path(destination), force: overwrite, options: options)
        } catch {
            return TransferOperation { _ in throw error }
        }
    }
}
