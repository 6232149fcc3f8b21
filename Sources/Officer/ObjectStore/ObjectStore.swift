import FileModel
import Foundation
import HTTP
import Journal
import Preview
import Transfer

/// One configured S3-compatible remote, reached through the front door (``OfficerFiles/objectStore(_:)``), which
/// lends it its HTTP settings (TLS, logging, offline, retries) and its journal. The operations keep the rules
/// the Officer ones keep: nothing overwritten without `force`, downloads resumable and verified and landing
/// under their final name only when complete, uploads resumable part by part across runs.
package struct ObjectStore: Sendable {
    /// The remote's settings.
    package let remote: ObjectStoreRemote
    /// The S3 requests.
    package let client: ObjectStoreClient
    /// Unfinished transfers.
    package let journal: TransferJournal?

    /// A store for `remote` over `http`, journaling in `journal`.
    package init(remote: ObjectStoreRemote, http: HTTPClient, journal: TransferJournal?) throws(ObjectStoreError) {
        let endpoint = try ObjectStoreEndpoint(url: remote.endpoint, region: remote.region, pathStyle: remote.pathStyle)
        self.remote = remote
        var client = ObjectStoreClient(
            endpoint: endpoint, accessKey: remote.accessKey, secretKey: remote.secretKey, http: http)
        client.name = remote.name
        self.client = client
        self.journal = journal
    }

    /// The uploader (single PUT, or resumable multipart).
    package var uploader: ObjectStoreUploader {
        var uploader = ObjectStoreUploader(client: client, journal: journal)
        uploader.remoteName = remote.name
        return uploader
    }

    /// The ranged downloader for a bucket: `If-Match` keeps every range to the version it started with (S3
    /// stores such as Swift ignore `If-Range`).
    package func downloader(bucket: String) -> SegmentedDownloader {
        var downloader = SegmentedDownloader(http: client.http(bucket: bucket), journal: journal)
        downloader.rangeCondition = .ifMatch
        downloader.sourceName = remote.name
        return downloader
    }

    // MARK: Looking

    /// What is at `path`: the buckets of the remote, the entries of a bucket or folder (one level unless
    /// `recursive`), or one object; streamed a page at a time.
    package func list(_ path: ObjectStorePath, recursive: Bool = false) -> AsyncThrowingStream<ObjectEntry, any Error> {
        let client = client
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    if path.isRemoteRoot {
                        for bucket in try await client.listBuckets() {
                            continuation.yield(
                                ObjectEntry(path: path.appending(bucket.name), isFolder: true, mtime: bucket.created))
                        }
                        continuation.finish()
                        return
                    }
                    let prefix = path.folderPrefix
                    var token: String?
                    var found = false
                    repeat {
                        let page = try await client.list(
                            bucket: path.bucket, prefix: prefix, delimiter: recursive ? nil : "/", continuation: token)
                        // A page's folders and objects merged into key order: S3 pages follow that order, so the
                        // whole listing is in it (a folder view can page it and resume after a name).
                        var entries: [ObjectEntry] = page.prefixes.map { folder in
                            ObjectEntry(
                                path: ObjectStorePath(remote: path.remote, bucket: path.bucket, key: folder),
                                isFolder: true)
                        }
                        for object in page.objects where object.key != prefix {
                            let isMarker = object.key.hasSuffix("/") && object.size == 0
                            entries.append(
                                ObjectEntry(
                                    path: ObjectStorePath(remote: path.remote, bucket: path.bucket, key: object.key),
                                    isFolder: isMarker,
                                    size: object.size, mtime: object.lastModified, etag: object.etag))
                        }
                        entries.sort { $0.path.key.utf8.lexicographicallyPrecedes($1.path.key.utf8) }
                        entries = await self.withOwnTimes(
                            entries, bucket: path.bucket, prefix: prefix, recursive: recursive)
                        found = found || !entries.isEmpty
                        for entry in entries { continuation.yield(entry) }
                        if page.objects.contains(where: { $0.key == prefix }) { found = true }
                        token = page.nextToken
                    } while token != nil
                    if !found, path.key.hasSuffix("/") {
                        // Named as a folder, and none is there (an object under the name without its `/` is not it).
                        throw ObjectStoreError.noSuchFolder(bucket: client.shown(path.bucket), key: path.key)
                    }
                    if !found, !path.key.isEmpty {
                        // Not a folder: perhaps one object.
                        guard let info = try await client.head(bucket: path.bucket, key: path.objectKey) else {
                            throw ObjectStoreError.noSuchKey(bucket: client.shown(path.bucket), key: path.objectKey)
                        }
                        continuation.yield(Self.entry(path, info))
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// One entry: an object (with its own modification time and hashes from the metadata), else a folder when
    /// objects lie below it, else a bucket.
    package func stat(_ path: ObjectStorePath) async throws -> ObjectEntry {
        if path.isRemoteRoot { return ObjectEntry(path: path, isFolder: true) }
        if path.isBucket {
            guard try await client.bucketExists(path.bucket) else {
                throw ObjectStoreError.noSuchBucket(bucket: client.shown(path.bucket))
            }
            return ObjectEntry(path: path, isFolder: true)
        }
        let standing = try await standing(at: path)
        if let info = standing.object { return Self.entry(path, info) }
        guard standing.isFolder else {
            throw ObjectStoreError.noSuchKey(bucket: client.shown(path.bucket), key: path.objectKey)
        }
        return ObjectEntry(
            path: ObjectStorePath(remote: path.remote, bucket: path.bucket, key: path.folderPrefix), isFolder: true)
    }

    /// What stands at a key: the object under it (none for a key written with `/`), else whether objects lie
    /// below it; both asked at once — one round trip, not three (the object, its bucket, the folder). A missing bucket is
    /// told by the listing's `NoSuchBucket`.
    func standing(at path: ObjectStorePath) async throws -> (object: ObjectInfo?, isFolder: Bool) {
        let asksObject = !path.key.hasSuffix("/")
        async let object = asksObject ? client.head(bucket: path.bucket, key: path.objectKey, bucketChecked: true) : nil
        async let below = client.list(bucket: path.bucket, prefix: path.folderPrefix, maxKeys: 1)
        if let info = try await object {
            _ = try? await below  // awaited, not cancelled (its connection stays usable); unneeded, may be refused
            return (info, false)
        }
        return (nil, !(try await below).objects.isEmpty)
    }

    static func entry(_ path: ObjectStorePath, _ info: ObjectInfo) -> ObjectEntry {
        var entry = ObjectEntry(
            path: ObjectStorePath(remote: path.remote, bucket: path.bucket, key: info.key), isFolder: false,
            size: info.size,
            mtime: info.modificationTime, etag: info.etag, sha256: info.sha256, contentType: info.contentType)
        entry.checksum = info.contentChecksum
        return entry
    }

    // MARK: Changing

    /// Creates the bucket `path` names; a key in the path is refused (S3 has no folders to create). An existing
    /// bucket is a conflict (as an existing Officer folder is without `-p`) unless `existingIsFine`.
    package func makeBucket(_ path: ObjectStorePath, existingIsFine: Bool = false) async throws {
        guard path.isBucket else {
            throw FrontDoorRefusal.invalidValue(
                "\(path): only buckets are created (NAME:bucket); folders exist by the files in them")
        }
        // A name no new bucket can have is said as such before the store is asked (it answers a bare 400).
        do { try ObjectStoreClient.checkBucketName(path.bucket) } catch {
            throw RemotePathError.invalidBucket(path: path.description, bucket: path.bucket)
        }
        if !existingIsFine, try await client.bucketExists(path.bucket) {
            throw FrontDoorRefusal.exists(path.description)
        }
        try await client.createBucket(path.bucket)
    }

    /// Removes an object, or with `recursive` a folder or bucket and everything in it; the number of objects
    /// removed. A folder or non-empty bucket without `recursive` is ``FrontDoorRefusal/needsRecursive(_:)``.
    @discardableResult
    package func remove(_ path: ObjectStorePath, recursive: Bool) async throws -> Int {
        guard !path.isRemoteRoot else {
            throw FrontDoorRefusal.invalidValue("\(path): name a bucket or a file to remove")
        }
        if !path.isBucket, !path.key.hasSuffix("/"),
            try await client.head(bucket: path.bucket, key: path.objectKey) != nil
        {
            try await client.delete(bucket: path.bucket, key: path.objectKey)
            return 1
        }
        let prefix = path.folderPrefix
        let first = try await client.list(bucket: path.bucket, prefix: prefix, maxKeys: 1)
        if first.objects.isEmpty {
            if path.isBucket {
                try await client.deleteBucket(path.bucket)
                return 0
            }
            throw ObjectStoreError.noSuchKey(bucket: client.shown(path.bucket), key: path.objectKey)
        }
        guard recursive else { throw FrontDoorRefusal.needsRecursive(path.description) }
        let removed = try await removeAll(bucket: path.bucket, prefix: prefix)
        if path.isBucket { try await client.deleteBucket(path.bucket) }
        return removed
    }

    /// Deletes every object below `prefix`, eight at a time, page by page.
    func removeAll(bucket: String, prefix: String) async throws -> Int {
        var removed = 0
        var token: String?
        let client = client
        repeat {
            let page = try await client.list(bucket: bucket, prefix: prefix, continuation: token)
            try await withThrowingTaskGroup(of: Void.self) { group in
                var running = 0
                for object in page.objects {
                    if running >= 8 {
                        try await group.next()
                        running -= 1
                    }
                    group.addTask { try await client.delete(bucket: bucket, key: object.key) }
                    running += 1
                }
                try await group.waitForAll()
            }
            removed += page.objects.count
            token = page.nextToken
        } while token != nil
        return removed
    }

    // MARK: Transfers

    /// Downloads an object to `destination`: parallel ranges for large objects, resumable from the journal,
    /// each range held to the version it started with (`If-Match`), the object's own modification time set.
    package func download(
        _ path: ObjectStorePath, to destination: String, options given: DownloadOptions = DownloadOptions()
    ) -> TransferOperation<DownloadResult> {
        TransferOperation { report in
            let entry = try await stat(path)
            guard !entry.isFolder else { throw FrontDoorRefusal.notAnObject(path.description) }
            var options = given
            options.modificationTime = options.modificationTime ?? entry.mtime
            options.knownLength = entry.size
            // The HEAD that found the object gave its version: the download asks no second one. Its digest is what
            // the bytes must match (a caller's own checksum stands).
            options.knownETag = entry.etag
            options.knownServesRanges = true
            let refetchOnDamage = options.checksum == nil
            if refetchOnDamage { options.checksum = entry.checksum }
            // Replaced while it came (its ranges refused, 412): the download starts over with the version there now.
            let timeIsTheObjects = given.modificationTime == nil
            options.refreshOnChange = { [self] stale in
                var fresh = stale
                // Nothing known of the new version when it cannot be asked: the download's own HEAD finds it.
                let now = (try? await stat(path)).flatMap { $0.isFolder ? nil : $0 }
                fresh.knownETag = now?.etag
                fresh.knownLength = now?.size
                if refetchOnDamage { fresh.checksum = now?.checksum }
                if timeIsTheObjects { fresh.modificationTime = now?.mtime }
                return fresh
            }
            return try await checkedDownload(
                bucket: path.bucket, key: path.objectKey, to: destination, options: options,
                refetchOnDamage: refetchOnDamage
            ) { report($0) }
        }
    }

    /// Downloads an object as every download of one goes (`get`, a sync's pull): its bytes must match the object's
    /// own digest (``DownloadOptions/checksum`` or ``DownloadOptions/checksumInHeaders``), and bytes damaged on the
    /// way are fetched once more from the first byte before the download is refused (`refetchOnDamage`: not when
    /// the checksum is the caller's, which says what the file must be).
    func checkedDownload(
        bucket: String, key: String, to destination: String, options: DownloadOptions, refetchOnDamage: Bool = true,
        onEvent: (@Sendable (TransferEvent) -> Void)? = nil
    ) async throws -> DownloadResult {
        let url = client.objectURL(bucket: bucket, key: key)
        do {
            return try await downloader(bucket: bucket).download(
                from: url, credential: nil, to: destination, options: options, onEvent: onEvent)
        } catch .checksumMismatch where refetchOnDamage {
            onEvent?(.restarted(reason: "the bytes that arrived do not match the object's checksum"))
            return try await downloader(bucket: bucket).download(
                from: url, credential: nil, to: destination, options: options, onEvent: onEvent)
        }
    }

    /// Writes an object to an open descriptor (`cat`), resuming a broken connection where it stopped as long as
    /// the object is the same (`If-Match`); the bytes written must match the object's digest (its stored SHA-256 or
    /// MD5 ETag), or the read ends with ``DownloadError/damagedStream(url:output:expected:actual:)``.
    package func stream(
        _ path: ObjectStorePath, to fileDescriptor: Int32, outputName: String = "<output>",
        bandwidthLimit: Int64? = nil
    ) async throws -> Int64 {
        let entry = try await stat(path)
        guard !entry.isFolder else { throw FrontDoorRefusal.notAnObject(path.description) }
        let url = client.objectURL(bucket: path.bucket, key: path.objectKey)
        let digest = RunningDigest(md5: entry.checksum?.algorithm == .md5)
        let outcome = try await downloader(bucket: path.bucket).stream(
            from: url, credential: nil, to: fileDescriptor, copy: nil, ifNoneMatch: nil,
            bandwidthLimit: bandwidthLimit, digest: digest)
        if case .failure(let mismatch) = ContentVerification.check(
            actual: digest.finalized(for: entry.checksum), against: entry.checksum)
        {
            throw DownloadError.damagedStream(
                url: URLRedaction.redacted(url), output: outputName, expected: mismatch.expected.description,
                actual: mismatch.actual)
        }
        return outcome.written
    }

    /// Where an upload of `localFile` to `path` goes: into the bucket or folder it names (a bucket, or a key
    /// ending in `/`), else to that key.
    /// The object that stands at that key comes with it when the answer told it (nil: none there, or not asked).
    package func uploadDestination(of localFile: String, to path: ObjectStorePath) async throws
        -> (path: ObjectStorePath, standing: ObjectInfo?)
    {
        guard !path.isRemoteRoot else {
            throw FrontDoorRefusal.invalidValue("\(path): name a bucket to upload into (\(path.remote):BUCKET/...)")
        }
        let name = (localFile as NSString).lastPathComponent
        if path.isBucket || path.key.hasSuffix("/") { return (path.appending(name), nil) }
        // As `cp` places a copy: a name that is a folder already (objects below `key/`) takes the file in.
        let standing = try await standing(at: path)
        if standing.object == nil, standing.isFolder {
            return (
                ObjectStorePath(remote: path.remote, bucket: path.bucket, key: path.folderPrefix).appending(name), nil
            )
        }
        return (path, standing.object)
    }

    /// Uploads a local file to `path` (see ``uploadDestination(of:to:)``); an existing object is replaced only
    /// with `force` (``FrontDoorRefusal/exists(_:)``) or by the upload the journal keeps of this file. An interrupted multipart upload continues on the next call.
    package func upload(
        _ localFile: String, to path: ObjectStorePath, force: Bool = false, options: UploadOptions = UploadOptions()
    ) -> TransferOperation<UploadResult> {
        TransferOperation { report in
            let (target, standing) = try await uploadDestination(of: localFile, to: path)
            // The same command run again after an interruption continues its own upload, whatever stands there now.
            if !force, !uploader.isUnfinished(localFile, bucket: target.bucket, key: target.objectKey),
                target == path
                    ? standing != nil : try await client.head(bucket: target.bucket, key: target.objectKey) != nil
            {
                throw FrontDoorRefusal.exists(target.description)
            }
            var extra: [String: String] = [:]
            for item in options.metadata { extra[item.key.lowercased()] = item.value }
            return try await uploader.upload(
                file: localFile, bucket: target.bucket, key: target.objectKey, extra: extra, options: options
            ) { report($0) }
        }
    }

    /// Aborts an unfinished multipart upload kept in the journal and forgets it.
    package func abort(_ upload: TransferJournal.ObjectUpload) async throws {
        try await uploader.abort(upload)
    }
}

extension ObjectStore {
    /// What an object is and how the Officer viewer would show it, from its first 64 KiB (a Range request) and
    /// only what the format keeps elsewhere, never the whole object.
    package func facts(of path: ObjectStorePath) async throws -> FileFacts {
        let entry = try await stat(path)
        guard !entry.isFolder else { throw FrontDoorRefusal.notAnObject(path.description) }
        let mtime = entry.mtime ?? 0
        if entry.size == 0 {
            return try FileFacts(
                prefix: Data(), name: path.name, path: path.description, size: 0, modificationTime: mtime, mode: nil)
        }
        let file = RangedFile(
            http: client.http(bucket: path.bucket), url: client.objectURL(bucket: path.bucket, key: path.objectKey),
            credential: nil,
            size: entry.size, etag: entry.etag)
        return try await BlockingWork.onOwnThread(cancelling: file) {
            try FileFacts.reading(file, name: path.name, path: path.description, modificationTime: mtime, mode: nil)
        }
    }
}
