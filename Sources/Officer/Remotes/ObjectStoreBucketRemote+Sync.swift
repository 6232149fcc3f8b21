import FileModel
import Foundation
import HTTP
import Journal
import Transfer

/// An object store's side of a sync, rooted at a bucket or a folder (prefix). Folders are prefixes: a pushed empty
/// folder is kept as a zero-byte `name/` marker, as S3 consoles and rclone make them; a folder that gets files
/// needs none. Listings carry when the store wrote an object, not the file's own time, so the sync asks for that
/// (a HEAD: `x-amz-meta-mtime`) only where sizes are equal and the time decides, or when a pulled file needs it —
/// and not even then when the journal remembers the time for the object's listed ETag and size (written or read
/// by an earlier run).
extension ObjectStoreBucketRemote {
    /// The bucket and prefix synced (a remote's root names no bucket: refused).
    func base(_ root: SyncRoot) throws -> ObjectStorePath {
        let base = try path(root.location)
        guard !base.isRemoteRoot else {
            throw FrontDoorRefusal.invalidValue("\(base): name a bucket to sync with (\(base.remote):BUCKET/...)")
        }
        return base
    }

    /// The key of `path` below the root.
    func key(_ path: SyncPath, in root: SyncRoot) throws -> String { try base(root).folderPrefix + path.description }

    var client: ObjectStoreClient { store.client }

    func syncDescription(_ root: SyncRoot) -> String { root.location.description }

    /// A prefix exists once a key lies below it.
    var impliesFolders: Bool { true }

    /// The store's requests' meter.
    var linkMeter: LinkMeter? { client.http(bucket: nil).configuration.linkMeter }

    /// The bucket walked below the prefix, in sync order.
    func syncListing(
        _ root: SyncRoot, missingRootIsEmpty: Bool, onProblem: @escaping @Sendable (SyncPath, String, Bool) -> Void
    ) -> any SyncRemoteIterator {
        do {
            let base = try base(root)
            return ObjectTreeIterator(
                client: client, bucket: base.bucket, base: base.folderPrefix, missingRootIsEmpty: missingRootIsEmpty,
                journal: store.journal)
        } catch {
            return FailedSyncListing(error)
        }
    }

    /// Remembers the time stored with an object's current version; a journal that cannot be written only costs
    /// a HEAD next time.
    func remember(key: String, in bucket: String, etag: String?, size: Int64, mtime: Double?) {
        guard let etag, let mtime else { return }
        try? store.journal?.rememberObjectTime(
            endpoint: client.endpoint.url, bucket: bucket, key: key,
            .init(etag: ObjectInfo.unquoted(etag), size: size, mtime: mtime))
    }

    /// Checks the bucket (and a prefix that must exist).
    /// The three questions go at once (one round trip, not three); their answers are read in the order above.
    func checkSyncRoot(_ root: SyncRoot, mustExist: Bool) async throws {
        let base = try base(root)
        let client = client
        let asksObject = !base.key.isEmpty && !base.key.hasSuffix("/")
        // Each answer awaited whatever the others say, never cancelled (a cancelled request costs its connection).
        async let bucketAnswer = Result.awaiting { () async throws(ObjectStoreError) in
            try await client.bucketExists(base.bucket)
        }
        async let objectAnswer = Result.awaiting { () async throws(ObjectStoreError) in
            asksObject ? try await client.head(bucket: base.bucket, key: base.objectKey, bucketChecked: true) : nil
        }
        async let belowAnswer = Result.awaiting { () async throws(ObjectStoreError) in
            mustExist && !base.key.isEmpty
                ? try await client.list(bucket: base.bucket, prefix: base.folderPrefix, maxKeys: 1).objects.first : nil
        }
        let (bucketExists, object, firstBelow) = await (bucketAnswer, objectAnswer, belowAnswer)
        guard try bucketExists.get() else {
            if mustExist { throw ObjectStoreError.noSuchBucket(bucket: client.shown(base.bucket)) }
            return
        }
        if let info = try object.get(), !info.key.hasSuffix("/") {
            throw SyncRootError.notAFolder(path: base.description)
        }
        if mustExist, !base.key.isEmpty, try firstBelow.get() == nil {
            throw SyncRootError.missing(path: base.description, onThisMachine: false)
        }
    }

    /// The bucket for the root; a folder's zero-byte marker (the sync asks for one only for a folder it leaves
    /// empty, ``impliesFolders``).
    func makeSyncFolder(_ path: SyncPath, in root: SyncRoot) async throws {
        let base = try base(root)
        if path == .root {
            // A push into a bucket that is not there yet creates it, as `rclone sync` does.
            if try await !client.bucketExists(base.bucket) { try await client.createBucket(base.bucket) }
            return
        }
        try await client.put(bucket: base.bucket, key: try key(path, in: root) + "/", data: Data())
    }

    /// Uploads a local file as an object (in parts when large), with its time.
    func syncUpload(
        _ local: String, to path: SyncPath, in root: SyncRoot, mtime: Double,
        onProgress: @escaping @Sendable (Int64) -> Void
    ) async throws {
        var extra: [String: String] = [:]
        // A prepared image is a new file: the object keeps the original's time.
        if let own = LocalFiles.modificationTime(of: local), abs(own - mtime) >= 1e-6 {
            extra["mtime"] = ObjectMetadata.mtimeText(seconds: mtime)
        }
        let progress = PartProgressSum()
        _ = try await store.uploader.upload(
            file: local, bucket: try base(root).bucket, key: try key(path, in: root), extra: extra
        ) { event in
            if case .progress(let part, let done) = event { onProgress(progress.update(part: part, done: done)) }
        }
    }

    /// Downloads an object to a local file, checked against its own digest; its stored time, from the answer that
    /// carried the object whole or the HEAD asked beside its ranges.
    func syncDownload(
        _ item: SyncItem, in root: SyncRoot, to local: String,
        onProgress: @escaping @Sendable (Int64) -> Void
    ) async throws -> SyncFetched {
        var options = DownloadOptions.syncFetch(size: item.size)
        // An object store serves ranges (OpenStack Swift's S3 layer without saying so): no range asked to find out.
        options.knownServesRanges = true
        // The object's own digest (its stored SHA-256, its MD5 ETag) comes with the HEAD or GET that finds it.
        let objectKey = try key(item.path, in: root)
        let bucket = try base(root).bucket
        options.checksumInHeaders = { ObjectStoreClient.info(key: objectKey, headers: $0).contentChecksum }
        let plain = options
        let beside = headBeside(item, bucket: bucket, key: objectKey, options: &options)
        defer { beside?.cancel() }
        let progress = PartProgressSum()
        func fetch(_ options: DownloadOptions) async throws -> DownloadResult {
            try await store.checkedDownload(bucket: bucket, key: objectKey, to: local, options: options) { event in
                if case .progress(let segment, let done) = event {
                    onProgress(progress.update(part: segment, done: done))
                }
            }
        }
        let result: DownloadResult
        do {
            result = try await fetch(options)
        } catch {
            guard let beside, beside.foundAnotherVersion else { throw beside?.failureAwaited ?? error }
            // The HEAD found the object replaced or gone since the listing: bytes held to the listed version cannot
            // be checked by the stored digest of another. Fetched again as any download is, a HEAD first.
            return try await fetched(fetch(plain), key: objectKey, bucket: bucket, beside: nil)
        }
        return await fetched(result, key: objectKey, bucket: bucket, beside: beside)
    }

    /// What a fetch brought: its check, and the stored time of the version fetched — from the GET's headers (the
    /// HEAD's), else from the HEAD asked beside the ranges when the ranges were of its version (not after a restart
    /// that fetched a newer one). The time is remembered, as a HEAD's is.
    private func fetched(_ result: DownloadResult, key objectKey: String, bucket: String, beside: ObjectHeadBeside?)
        async -> SyncFetched
    {
        var answered = result.responseHeaders.map { ObjectStoreClient.info(key: objectKey, headers: $0) }
        if answered == nil, let beside, let etag = result.etag,
            ObjectInfo.unquoted(etag) == ObjectInfo.unquoted(beside.listedETag)
        {
            answered = try? await beside.sameVersion()
        }
        guard let info = answered else { return SyncFetched(checked: result.checkedBy) }
        store.rememberStoredTime(of: info, bucket: bucket)
        return SyncFetched(mtime: info.modificationTime, checked: result.checkedBy)
    }

    /// For a large object whose listing gave its version: its ranges go at once, each held to that version
    /// (`If-Match`), and the HEAD that tells its stored digest and time is asked beside them instead of before
    /// (a round trip less per object); the digest is awaited before the file takes its name. A version changed
    /// since the listing fails the ranges (412), and the download starts over as any other: a HEAD first.
    /// Nil (nothing asked beside) for a small object, whose one GET carries all, or a listing without a version.
    private func headBeside(
        _ item: SyncItem, bucket: String, key objectKey: String, options: inout DownloadOptions
    ) -> ObjectHeadBeside? {
        guard item.size > DownloadOptions.smallFileLimit, let listed = item.listedVersion.flatMap(Self.strongETag)
        else { return nil }
        let beside = ObjectHeadBeside(listedETag: listed) { [client] in
            try await client.head(bucket: bucket, key: objectKey, bucketChecked: true)
        }
        options.knownETag = listed
        options.pendingChecksum = { try await beside.checksum() }
        options.refreshOnChange = { stale in
            var fresh = stale
            fresh.knownETag = nil
            fresh.knownLength = nil
            fresh.pendingChecksum = nil
            return fresh
        }
        return beside
    }

    /// A listed ETag as a strong validator in its quoted form (some stores list it bare); nil for a weak one.
    static func strongETag(_ listed: String) -> String? {
        guard !listed.isEmpty, !listed.hasPrefix("W/") else { return nil }
        return listed.hasPrefix("\"") ? listed : "\"" + listed + "\""
    }

    /// Removes an object, or every object under a folder.
    func syncDelete(_ path: SyncPath, isDirectory: Bool, in root: SyncRoot) async throws {
        let bucket = try base(root).bucket
        let objectKey = isDirectory ? try key(path, in: root) + "/" : try key(path, in: root)
        if isDirectory {
            _ = try await store.removeAll(bucket: bucket, prefix: objectKey)
        } else {
            try await client.delete(bucket: bucket, key: objectKey)
        }
        try? store.journal?.forgetObjectTimes(endpoint: client.endpoint.url, bucket: bucket, key: objectKey)
    }

    /// The object's HEAD, or the store's "no such key".
    private func head(_ path: SyncPath, in root: SyncRoot) async throws -> (bucket: String, info: ObjectInfo) {
        let bucket = try base(root).bucket
        let objectKey = try key(path, in: root)
        guard let info = try await client.head(bucket: bucket, key: objectKey) else {
            throw ObjectStoreError.noSuchKey(bucket: client.shown(bucket), key: objectKey)
        }
        return (bucket, info)
    }

    /// The item as the store holds it now (its size and time read again).
    func exactItem(_ item: SyncItem, in root: SyncRoot) async throws -> SyncItem {
        guard !item.isDirectory else { return item }
        let (bucket, info) = try await head(item.path, in: root)
        var exact = item
        exact.mtime = info.modificationTime
        exact.size = info.size
        exact.isTimeExact = true
        exact.listedVersion = info.etag
        store.rememberStoredTime(of: info, bucket: bucket)
        return exact
    }

    /// The stored SHA-256, else the MD5 (a single-part ETag, or the `md5chksum` rclone stores with parts).
    func syncChecksum(_ path: SyncPath, in root: SyncRoot, like other: SyncChecksum?) async throws -> SyncChecksum {
        let (bucket, info) = try await head(path, in: root)
        if let sum = info.contentChecksum { return SyncChecksum(algorithm: sum.algorithm, hex: sum.hex) }
        throw ObjectStoreError.integrity(
            request: "\(bucket)/\(info.key)",
            detail: "the object carries no content hash (stored in parts without one): compare by size and time")
    }

    /// Sets the object's stored time (a copy onto itself with new metadata).
    func setSyncTime(_ path: SyncPath, in root: SyncRoot, to mtime: Double) async throws {
        let (bucket, info) = try await head(path, in: root)
        var metadata = info.metadata
        metadata["mtime"] = ObjectMetadata.mtimeText(seconds: mtime)
        try await client.replaceMetadata(
            bucket: bucket, key: info.key, metadata: metadata, contentType: info.contentType)
        // A copy in one piece keeps its ETag (the MD5); one in parts may get another, which only costs a HEAD.
        remember(key: info.key, in: bucket, etag: info.etag, size: info.size, mtime: Double(metadata["mtime"]!))
    }
}
