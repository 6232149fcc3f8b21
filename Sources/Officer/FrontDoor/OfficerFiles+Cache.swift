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

}

extension OfficerFiles {
    /// Entries and bytes, by kind, against the limit.
    package func cacheStatistics() throws -> CacheStatistics { try server.configuredCache().statistics() }

    /// Every cache entry, least recently used first.
    package func cacheEntries() throws -> [CacheEntry] { try server.configuredCache().entries() }

    /// Removes every unpinned entry (`includingPinned`: every entry); returns how many went and their bytes.
    @discardableResult
    package func clearCache(includingPinned: Bool = false) throws -> (entries: Int, bytes: Int64) {
        let (count, bytes) = try server.configuredCache().clear(includingPinned: includingPinned)
        return (count, bytes)
    }

    /// Checks the index against the files and repairs what differs (entries without a file, entries whose bytes
    /// no longer match their SHA-256, files without an entry, stale temp files, an unreadable index, more bytes
    /// than the limit), then, where the server can be reached and offers checksums, compares every file it cached
    /// of this server with the server's SHA-256: one that differs while the server still holds the same version
    /// was admitted damaged and is dropped; one that matches is verified from then on.
    package func verifyCache() async throws -> CacheVerification {
        let cache = try server.configuredCache()
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
            } else if let etag = entry.etag, try await server.currentETag(of: path) != etag {
                report.outdated += 1
            } else {
                cache.dropDamaged(entry)
                report.differingFromServer.append(entry)
            }
        }
    }
}
