import FileModel
import Foundation
import HTTP
import Journal
import Transfer

/// ``SyncRemote`` over a bucket or a folder (prefix) of an object store. Folders are prefixes: a pushed empty
/// folder is kept as a zero-byte `name/` marker, as S3 consoles and rclone make them; a folder that gets files
/// needs none. Listings carry when the
/// store wrote an object, not the file's own time, so the sync asks for that (a HEAD: `x-amz-meta-mtime`) only
/// where sizes are equal and the time decides, or when a pulled file needs it — and not even then when the
/// journal remembers the time for the object's listed ETag and size (written or read by an earlier run).
package struct ObjectStoreSyncRemote: SyncRemote {
    /// The store.
    package let store: ObjectStore
    /// The bucket and prefix synced.
    package let base: ObjectStorePath

    /// A remote for `base`.
    package init(store: ObjectStore, base: ObjectStorePath) {
        self.store = store
        self.base = base
    }

    /// `NAME:bucket/prefix`.
    package var description: String { base.description }

    var client: ObjectStoreClient { store.client }

    func key(_ path: SyncPath) -> String { base.folderPrefix + path.description }

    /// The bucket walked below the prefix, in sync order.
    package func makeIterator(missingRootIsEmpty: Bool) -> any SyncRemoteIterator {
        ObjectTreeIterator(
            client: client, bucket: base.bucket, base: base.folderPrefix, missingRootIsEmpty: missingRootIsEmpty,
            journal: store.journal)
    }

    /// Remembers the time stored with an object's current version; a journal that cannot be written only costs
    /// a HEAD next time.
    func remember(key: String, etag: String?, size: Int64, mtime: Double?) {
        guard let etag, let mtime else { return }
        try? store.journal?.rememberObjectTime(
            endpoint: client.endpoint.url, bucket: base.bucket, key: key,
            .init(etag: ObjectInfo.unquoted(etag), size: size, mtime: mtime))
    }

    /// Remembers the time an answer about the object (a HEAD's, a GET's) says it was stored with, when it says one.
    func rememberStoredTime(of info: ObjectInfo) { store.rememberStoredTime(of: info, bucket: base.bucket) }

    /// Checks the bucket (and a prefix that must exist).
    package func checkRoot(mustExist: Bool) async throws {
        guard try await client.bucketExists(base.bucket) else {
            if mustExist { throw ObjectStoreError.noSuchBucket(bucket: client.shown(base.bucket)) }
            return
        }
        if !base.key.isEmpty, !base.key.hasSuffix("/"),
            let info = try await client.head(bucket: base.bucket, key: base.objectKey), !info.key.hasSuffix("/")
        {
            throw SyncRootError.notAFolder(path: base.description)
        }
        if mustExist, !base.key.isEmpty {
            let page = try await client.list(bucket: base.bucket, prefix: base.folderPrefix, maxKeys: 1)
            if page.objects.isEmpty { throw SyncRootError.missing(path: base.description) }
        }
    }

    /// A prefix exists once a key lies below it.
    package var impliesFolders: Bool { true }

    /// The bucket for the root; a folder's zero-byte marker (the sync asks for one only for a folder it leaves
    /// empty, ``impliesFolders``).
    package func makeDirectory(_ path: SyncPath) async throws {
        if path == .root {
            // A push into a bucket that is not there yet creates it, as `rclone sync` does.
            if try await !client.bucketExists(base.bucket) { try await client.createBucket(base.bucket) }
            return
        }
        try await client.put(bucket: base.bucket, key: key(path) + "/", data: Data())
    }

    /// Uploads a local file as an object (in parts when large), with its time.
    package func upload(
        _ localFile: String, to path: SyncPath, mtime: Double, onProgress: @escaping @Sendable (Int64) -> Void
    ) async throws {
        var extra: [String: String] = [:]
        // A prepared image is a new file: the object keeps the original's time.
        if let own = OfficerFiles.modificationTime(of: localFile), abs(own - mtime) >= 1e-6 {
            extra["mtime"] = ObjectMetadata.mtimeText(seconds: mtime)
        }
        let progress = DownloadProgressSum()
        _ = try await store.uploader.upload(file: localFile, bucket: base.bucket, key: key(path), extra: extra) {
            event in
            if case .progress(let part, let done) = event { onProgress(progress.update(segment: part, done: done)) }
        }
    }

    /// Downloads an object to a local file; its stored time, when the answer carried the object whole.
    package func download(
        _ path: SyncPath, size: Int64, to localFile: String, onProgress: @escaping @Sendable (Int64) -> Void
    ) async throws -> SyncFetched {
        var options = DownloadOptions()
        options.force = true
        options.preserveModificationTime = false
        options.knownLength = size
        // The object's own digest (its stored SHA-256, its MD5 ETag) comes with the HEAD or GET that finds it.
        let objectKey = key(path)
        options.checksumInHeaders = { ObjectStoreClient.info(key: objectKey, headers: $0).contentChecksum }
        let progress = DownloadProgressSum()
        let result = try await store.checkedDownload(
            bucket: base.bucket, key: objectKey, to: localFile, options: options
        ) { event in
            if case .progress(let segment, let done) = event {
                onProgress(progress.update(segment: segment, done: done))
            }
        }
        // The GET's headers are the HEAD's: the time comes with the bytes (and is remembered, as a HEAD's is).
        guard let headers = result.responseHeaders else { return SyncFetched(checked: result.checkedBy) }
        let info = ObjectStoreClient.info(key: key(path), headers: headers)
        rememberStoredTime(of: info)
        return SyncFetched(mtime: info.modificationTime, checked: result.checkedBy)
    }

    /// Removes an object, or every object under a folder.
    package func delete(_ path: SyncPath, isDirectory: Bool) async throws {
        let objectKey = isDirectory ? key(path) + "/" : key(path)
        if isDirectory {
            _ = try await store.removeAll(bucket: base.bucket, prefix: objectKey)
        } else {
            try await client.delete(bucket: base.bucket, key: objectKey)
        }
        try? store.journal?.forgetObjectTimes(endpoint: client.endpoint.url, bucket: base.bucket, key: objectKey)
    }

    /// The item as the store holds it now (its size and time read again).
    package func exactItem(_ item: SyncItem) async throws -> SyncItem {
        guard !item.isDirectory else { return item }
        guard let info = try await client.head(bucket: base.bucket, key: key(item.path)) else {
            throw ObjectStoreError.noSuchKey(bucket: client.shown(base.bucket), key: key(item.path))
        }
        var exact = item
        exact.mtime = info.modificationTime
        exact.size = info.size
        exact.isTimeExact = true
        rememberStoredTime(of: info)
        return exact
    }

    /// The object's SHA-256: the one stored with it, else read back and hashed.
    package func sha256(_ path: SyncPath) async throws -> String {
        let sum = try await checksum(path)
        guard sum.algorithm == .sha256 else {
            throw ObjectStoreError.integrity(
                request: "\(base.appending(path.description))", detail: "no SHA-256 stored with the object")
        }
        return sum.hex
    }

    /// The stored SHA-256, else the MD5 (a single-part ETag, or the `md5chksum` rclone stores with parts).
    package func checksum(_ path: SyncPath) async throws -> SyncChecksum {
        let objectKey = key(path)
        guard let info = try await client.head(bucket: base.bucket, key: objectKey) else {
            throw ObjectStoreError.noSuchKey(bucket: client.shown(base.bucket), key: objectKey)
        }
        if let sum = info.contentChecksum { return SyncChecksum(algorithm: sum.algorithm, hex: sum.hex) }
        throw ObjectStoreError.integrity(
            request: "\(base.bucket)/\(objectKey)",
            detail: "the object carries no content hash (stored in parts without one): compare by size and time")
    }

    /// Sets the object's stored time (a copy onto itself with new metadata).
    package func setModificationTime(_ path: SyncPath, to mtime: Double) async throws {
        let objectKey = key(path)
        guard let info = try await client.head(bucket: base.bucket, key: objectKey) else {
            throw ObjectStoreError.noSuchKey(bucket: client.shown(base.bucket), key: objectKey)
        }
        var metadata = info.metadata
        metadata["mtime"] = ObjectMetadata.mtimeText(seconds: mtime)
        try await client.replaceMetadata(
            bucket: base.bucket, key: objectKey, metadata: metadata, contentType: info.contentType)
        // A copy in one piece keeps its ETag (the MD5); one in parts may get another, which only costs a HEAD.
        remember(key: objectKey, etag: info.etag, size: info.size, mtime: Double(metadata["mtime"]!))
    }
}

/// Walks the prefix tree one level at a time (a listing with delimiter `/` per folder), each level sorted into
/// the sync's order (by UTF-8 name, a folder right before its contents) — S3's flat key order puts `a.txt`
/// before `a/b`, which a merge cannot use. One level is held at a time per depth, and the next few folders the
/// walk will enter are listed ahead, at once: a folder's listing costs a round trip, which on a slow link would
/// otherwise be paid once a folder, one after another.
actor ObjectTreeIterator: SyncRemoteIterator {
    /// Folders listed ahead at most.
    static let listedAhead = 8
    /// How far into each level the walk looks for the folders to list ahead.
    static let lookAhead = 64
    private var ahead: [SyncPath: Task<[Result<SyncItem, SyncNameError>], any Error>] = [:]
    private let client: ObjectStoreClient
    private let bucket: String
    private let base: String
    private let missingRootIsEmpty: Bool
    private let journal: TransferJournal?
    /// Levels being walked, innermost last; each holds its remaining entries in reverse order.
    private var levels: [[Result<SyncItem, SyncNameError>]] = []
    private var started = false
    private var descendInto: SyncPath?

    init(client: ObjectStoreClient, bucket: String, base: String, missingRootIsEmpty: Bool, journal: TransferJournal?) {
        self.journal = journal
        self.client = client
        self.bucket = bucket
        self.base = base
        self.missingRootIsEmpty = missingRootIsEmpty
    }

    func next() async throws -> Result<SyncItem, SyncNameError>? {
        if !started {
            started = true
            do {
                levels.append(try await level(.root))
            } catch ObjectStoreError.noSuchBucket(_) where missingRootIsEmpty {
                return nil
            }
            listAhead()
        }
        if let folder = descendInto {
            descendInto = nil
            if let listing = ahead.removeValue(forKey: folder) {
                levels.append(try await listing.value)
            } else {
                levels.append(try await level(folder))
            }
            listAhead()
        }
        while let last = levels.indices.last {
            guard let entry = levels[last].popLast() else {
                levels.removeLast()
                continue
            }
            if case .success(let item) = entry, item.isDirectory { descendInto = item.path }
            return entry
        }
        return nil
    }

    deinit {
        for listing in ahead.values { listing.cancel() }
    }

    /// Starts the listings of the next folders the walk will enter (innermost level first, in walk order), up to
    /// ``listedAhead`` at once.
    private func listAhead() {
        for depth in levels.indices.reversed() {
            for entry in levels[depth].suffix(Self.lookAhead).reversed() {
                guard ahead.count < Self.listedAhead else { return }
                guard case .success(let item) = entry, item.isDirectory, ahead[item.path] == nil else { continue }
                let path = item.path
                ahead[path] = Task { [self] in try await level(path) }
            }
        }
    }

    /// Every entry directly inside `folder`, in sync order, reversed for popping.
    private nonisolated func level(_ folder: SyncPath) async throws -> [Result<SyncItem, SyncNameError>] {
        let prefix = base + (folder == .root ? "" : folder.description + "/")
        var items: [SyncItem] = []
        var refused: [Result<SyncItem, SyncNameError>] = []
        var token: String?
        let remembered =
            (try? journal?.objectTimes(endpoint: client.endpoint.url, bucket: bucket, prefix: prefix)) ?? [:]
        func add(_ name: String, kind: SyncItem.Kind, size: Int64, mtime: Double, etag: String? = nil) {
            let relative = "/" + (folder == .root ? "" : folder.description + "/") + name
            switch SyncPath.relative(entryPath: relative, name: name, below: "/") {
            case .success(let path):
                var item = SyncItem(path: path, kind: kind, size: size, mtime: mtime)
                if kind == .file {
                    // The listing's time is when the store wrote it: exact only as remembered for this version.
                    if let known = remembered[prefix + name], let etag, known.etag == ObjectInfo.unquoted(etag),
                        known.size == size
                    {
                        item.mtime = known.mtime
                    } else {
                        item.isTimeExact = false
                    }
                }
                items.append(item)
            case .failure(let error): refused.append(.failure(SyncNameError(name: prefix + name, reason: error.reason)))
            }
        }
        repeat {
            let page = try await client.list(bucket: bucket, prefix: prefix, delimiter: "/", continuation: token)
            for folderPrefix in page.prefixes where folderPrefix.hasPrefix(prefix) {
                add(String(folderPrefix.dropFirst(prefix.count).dropLast()), kind: .directory, size: 0, mtime: 0)
            }
            for object in page.objects where object.key.hasPrefix(prefix) && object.key != prefix {
                // A `name/` marker of an empty folder is also a listed prefix only when something is inside.
                if object.key.hasSuffix("/") {
                    let name = String(object.key.dropFirst(prefix.count).dropLast())
                    if !page.prefixes.contains(object.key) { add(name, kind: .directory, size: 0, mtime: 0) }
                    continue
                }
                add(
                    String(object.key.dropFirst(prefix.count)), kind: .file, size: object.size,
                    mtime: object.lastModified, etag: object.etag)
            }
            token = page.nextToken
        } while token != nil
        // A marker and a prefix of the same folder (on different pages) are one folder.
        items.sort { $0.path < $1.path }
        var unique: [SyncItem] = []
        for item in items
        where !(item.isDirectory && unique.last.map { $0.isDirectory && $0.path == item.path } == true) {
            unique.append(item)
        }
        return (refused + unique.map { .success($0) }).reversed()
    }
}
