import FileModel
import Foundation
import HTTP
import Transfer

extension OfficerServer {
    /// Downloads an Officer file to `destination` (a file path): resumable from the journal, checked against the
    /// server's SHA-256 where it offers checksums (bytes damaged on the way fetched once more), in parallel
    /// ranges for large files, never over an existing file without `options.force`, with the server's
    /// modification time to the millisecond. A cached copy whose ETag the server still reports is copied instead
    /// of fetched; offline, the cached copy is the answer (or ``FrontDoorRefusal/notCachedOffline(_:)``).
    /// Files up to an eighth of the cache limit are kept in the cache afterwards.
    package func download(
        _ path: RemotePath, to destination: String, options: DownloadOptions = DownloadOptions()
    ) -> TransferOperation<DownloadResult> {
        TransferOperation { report in try await self.fetch(path, to: destination, options: options, report: report) }
    }

    private func fetch(
        _ path: RemotePath, to destination: String, options given: DownloadOptions,
        report: @escaping @Sendable (TransferEvent) -> Void
    ) async throws -> DownloadResult {
        guard !path.isRoot else { throw FrontDoorRefusal.isAFolder(path) }
        var options = given
        let client = try client
        let downloader = SegmentedDownloader(http: http, journal: try journal)
        let cache = try usableCache()
        let key = try cacheKey(path, kind: CacheKey.Kind.body)
        if !isOffline {
            // The HEAD the download (or the cached copy's check) starts from, asked beside the stat: the first byte
            // comes a round trip sooner.
            async let head = downloader.headAnswer(from: client.rawURL(for: path), credential: client.credential)
            // The listed time to the millisecond (Last-Modified has whole seconds).
            let entry = try await client.stat(path)
            guard !entry.isDirectory else { throw FrontDoorRefusal.isAFolder(path) }
            options.modificationTime = entry.mtime
            options.headAnswer = await head
        }
        var pinned = false
        if let cache {
            let (cached, wasPinned) = try checkedCacheEntry(cache, key: key, path: path)
            pinned = wasPinned
            if let (entry, handle) = cached, let digest = entry.sha256,
                options.checksum == nil || options.checksum?.sha256 == digest
            {
                var current = isOffline
                if !current, let etag = entry.etag {
                    let now =
                        if let answer = options.headAnswer { answer["ETag"] } else { try await currentETag(of: path) }
                    current = now == etag
                }
                if current {
                    if options.modificationTime == nil {
                        options.modificationTime = entry.metadata["mtime"].flatMap(Double.init)
                    }
                    // The copy is hashed on its way to the temp file and refused before the rename if it changed since.
                    var installing = options
                    installing.checksum = Checksum(parsing: "sha256:" + digest)
                    var result: DownloadResult
                    do {
                        result = try withExtendedLifetime(handle) {
                            try downloader.install(
                                from: handle.fileDescriptor, expectedLength: entry.size, to: destination,
                                options: installing)
                        }
                    } catch DownloadError.checksumMismatch {
                        cache.dropDamaged(entry)
                        if isOffline { throw FrontDoorRefusal.cachedCopyDamaged(path) }
                        warn(
                            "the cached copy of \(path) was damaged while it was copied: dropped it and fetching the file again"
                        )
                        return try await fetchAgain(
                            path, to: destination, options: options, pinned: entry.pinned, report: report)
                    }
                    result.checkedBy = entry.checkedBy
                    // Told once installed: a refused destination (it exists) shows no transfer that never was.
                    report(.started(total: entry.size, partSizes: [entry.size], resumedBytes: 0, method: .cache))
                    report(.progress(part: 0, done: result.bytes))
                    return result
                }
            } else if cached == nil, isOffline {
                throw FrontDoorRefusal.notCachedOffline(path)
            }
        } else if isOffline {
            throw FrontDoorRefusal.notCachedOffline(path)
        }
        return try await fetchAgain(path, to: destination, options: options, pinned: pinned, report: report)
    }

    /// Downloads from the server and keeps a copy in the cache (pinned again when the dropped copy was).
    private func fetchAgain(
        _ path: RemotePath, to destination: String, options: DownloadOptions, pinned: Bool,
        report: @escaping @Sendable (TransferEvent) -> Void
    ) async throws -> DownloadResult {
        if isOffline { throw FrontDoorRefusal.notCachedOffline(path) }
        let client = try client
        let downloader = SegmentedDownloader(http: http, journal: try journal)
        let cache = try usableCache()
        let key = try cacheKey(path, kind: CacheKey.Kind.body)
        let result = try await client.checkedDownload(path, with: downloader, to: destination, options: options) {
            report($0)
        }
        if let cache, let etag = result.etag, pinned || result.bytes <= cache.automaticEntryLimit {
            do {
                // Admitted as what the download matched: the server's SHA-256, or its length alone.
                try cache.store(
                    contentsOf: result.path, for: key, version: etag, pinned: pinned,
                    metadata: options.modificationTime.map { ["mtime": String($0)] } ?? [:],
                    expected: result.checkedBy == .sha256
                        ? result.sha256.flatMap { Checksum(algorithm: .sha256, hex: $0) } : nil)
            } catch {
                configuration.http.log?("cache: not stored: \(error)")
            }
        }
        return result
    }

    /// The ETag the server reports now (HEAD), to tell whether a cached copy is current.
    func currentETag(of path: RemotePath) async throws -> String? {
        let client = try client
        let response = try await client.send(
            HTTPRequest(
                method: "HEAD", url: client.rawURL(for: path), sink: .memory(limit: 0), credential: client.credential))
        return response.headers["ETag"]
    }
}

extension OfficerServer {
    /// The SHA-256 (hex) of the bytes the server holds at `path`: its own checksum where it offers one, else the
    /// file read back (one download, into a private temp file removed after) and hashed here, so a rule that needs
    /// the server's bytes confirmed (deleting the local copy after an upload) holds on every server.
    package func serverChecksum(of path: RemotePath) async throws -> String {
        let client = try client
        do {
            return try await client.sha256(path).sha256
        } catch {
            guard case .notOffered = error else { throw error }
            let temp = NSTemporaryDirectory() + "/.officer-readback-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
            defer { unlink(temp) }
            var options = DownloadOptions()
            options.force = true
            options.preserveModificationTime = false
            let result = try await SegmentedDownloader(http: http, journal: nil).download(
                from: client.rawURL(for: path), credential: client.credential, to: temp, options: options)
            return try result.sha256 ?? SHA256Hasher.hash(file: temp)
        }
    }
}
