import FileModel
import Foundation
import HTTP
import Preview
import Transfer

extension OfficerServer {
    /// Keeps an Officer file in the cache for good (eviction never removes a pinned entry): a cached copy the
    /// server still reports current is pinned as it is, otherwise the file is fetched first. Offline, only a
    /// copy already cached can be pinned.
    @discardableResult
    package func pin(_ path: RemotePath) async throws -> PinOutcome {
        let cache = try configuredCache()
        let key = try cacheKey(path, kind: CacheKey.Kind.body)
        let (cached, _) = try checkedCacheEntry(cache, key: key, path: path)
        if isOffline {
            guard let (entry, _) = cached else { throw FrontDoorRefusal.notCachedOffline(path) }
            try cache.setPinned(true, for: key)
            return PinOutcome(bytes: entry.size, wasCached: true)
        }
        if let (entry, _) = cached, let etag = entry.etag, try await currentETag(of: path) == etag {
            try cache.setPinned(true, for: key)
            return PinOutcome(bytes: entry.size, wasCached: true)
        }
        let client = try client
        // The server hashes the whole file before it answers: asked while the bytes come. Bytes that do not match it
        // (damaged on the way) are never admitted: fetched once more, then refused.
        let asked = Task { try await client.offeredChecksum(of: path) }
        defer { asked.cancel() }
        var attempt = 1
        while true {
            let staged = try cache.stage()
            let outcome = try await SegmentedDownloader(http: http, journal: nil).stream(
                from: client.rawURL(for: path), credential: client.credential, to: staged.fileDescriptor, copy: nil,
                ifNoneMatch: nil)
            do {
                let answer = try await asked.value
                // The server's time goes with the copy (see `read`): what an offline `get` gives the file.
                let mtime = answer?.mtime ?? outcome.lastModified.flatMap(HTTPDate.parse)
                let entry = try cache.commit(
                    staged, key: key, version: outcome.etag ?? "unversioned", pinned: true,
                    metadata: mtime.map { ["mtime": String($0)] } ?? [:], expected: answer?.checksum)
                return PinOutcome(bytes: entry.size, wasCached: false)
            } catch CacheError.damaged where attempt == 1 {
                warn(
                    "the bytes of \(path) were damaged on the way (they do not match the server's checksum): fetching it again"
                )
                attempt += 1
            }
        }
    }

    /// Lets a pinned file be evicted again; ``CacheError/notCached(key:)`` when it is not in the cache.
    package func unpin(_ path: RemotePath) throws {
        let key = try cacheKey(path, kind: CacheKey.Kind.body)
        guard let cache = try cache() else { throw CacheError.notCached(key: key) }
        try cache.setPinned(false, for: key)
    }
}
