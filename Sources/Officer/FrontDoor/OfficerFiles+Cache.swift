import FileModel
import Foundation
import HTTP
import Transfer

/// What pinning a file did.
package struct PinOutcome: Sendable, Equatable {
    /// The file's size in the cache.
    package var bytes: Int64
    /// True when the cached copy was already current (nothing was fetched).
    package var wasCached: Bool
}

extension OfficerFiles {
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

extension OfficerFiles {
    /// Entries and bytes, by kind, against the limit.
    package func cacheStatistics() throws -> CacheStatistics { try configuredCache().statistics() }

    /// Every cache entry, least recently used first.
    package func cacheEntries() throws -> [CacheEntry] { try configuredCache().entries() }

    /// Removes every unpinned entry (`includingPinned`: every entry); returns how many went and their bytes.
    @discardableResult
    package func clearCache(includingPinned: Bool = false) throws -> (entries: Int, bytes: Int64) {
        let (count, bytes) = try configuredCache().clear(includingPinned: includingPinned)
        return (count, bytes)
    }

    /// Checks the index against the files and repairs what differs (entries without a file, entries whose bytes
    /// no longer match their SHA-256, files without an entry, stale temp files, an unreadable index, more bytes
    /// than the limit), then, where the server can be reached and offers checksums, compares every file it cached
    /// of this server with the server's SHA-256: one that differs while the server still holds the same version
    /// was admitted damaged and is dropped; one that matches is verified from then on.
    package func verifyCache() async throws -> CacheVerification {
        let cache = try configuredCache()
        var report = try cache.verify()
        try await compareWithServer(cache, &report)
        return report
    }

    private func compareWithServer(_ cache: ContentCache, _ report: inout CacheVerification) async throws {
        guard !isOffline, configuration.server != nil else {
            report.serverNotAsked = "offline"
            return
        }
        let client = try client
        // Whether the server offers checksums now, not when it was last asked.
        client.offers.askAgain(.sha256)
        let mine = client.accountIdentity
        for entry in try cache.entries() where entry.key.kind == CacheKey.Kind.body && entry.key.server == mine {
            guard let path = try? RemotePath(root: entry.key.root, path: entry.key.path) else { continue }
            // (A Result, not a catch with conditions: the 6.3 compiler crashes on those around this typed throw.)
            let asked: Result<Checksum?, OfficerError>
            do { asked = .success(try await client.offeredChecksum(of: path)?.checksum) } catch {
                asked = .failure(error)
            }
            if case .failure(let error) = asked {
                if ErrorCategory.of(error) == .notFound {
                    report.outdated += 1
                    continue
                }
                report.serverNotAsked = "the server could not be asked (\(self.report(error).message))"
                return
            }
            let theirs = try asked.get()
            guard let theirs else {
                report.serverNotAsked = "the server offers no checksums"
                return
            }
            if case .success(let check) = ContentVerification.check(actual: entry.sha256, against: theirs) {
                report.matchingServer += 1
                if entry.checkedBy.isWeaker(than: check) { try cache.markChecked(entry, by: check) }
            } else if let etag = entry.etag, try await currentETag(of: path) != etag {
                report.outdated += 1
            } else {
                cache.dropDamaged(entry)
                report.differingFromServer.append(entry)
            }
        }
    }

    /// The cache for operations on the cache itself: without one they have nothing to work on.
    func configuredCache() throws -> ContentCache {
        guard let cache = try cache() else { throw FrontDoorRefusal.noCache }
        return cache
    }
}
