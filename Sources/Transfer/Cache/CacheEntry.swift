import Foundation
import HTTP

/// One stored entry: its key and version, where its bytes are, and its bookkeeping.
package struct CacheEntry: Sendable, Equatable, Codable {
    /// What it is for.
    package var key: CacheKey
    /// The remote file's version it was stored for (ETag, or size and mtime).
    package var version: String
    /// Bytes stored.
    package var size: Int64
    /// The file holding the bytes. It may vanish once another process evicts the entry: open it and treat
    /// a failure as a miss (an open descriptor stays readable after eviction).
    package var path: String
    /// When it was stored (seconds since 1970).
    package var created: Double
    /// When it was last read or stored.
    package var accessed: Double
    /// When it stops being served (seconds since 1970), if the cache has a time to live.
    package var expires: Double?
    /// Pinned entries are kept for offline use and never evicted.
    package var pinned: Bool
    /// Small facts stored with it (content type, original name…).
    package var metadata: [String: String]
    /// The SHA-256 of the stored bytes (hex), checked before they are handed out; nil only for an entry whose
    /// file was already gone when the index gained the column.
    package var sha256: String?
    /// What the bytes matched before they were admitted: the server's digest, or only their length and version
    /// (an entry of a server without checksums, or of an older build); only a digest is ever reported as verified.
    package var checkedBy: ContentCheck = .size

    /// The stored bytes unchecked, or nil if the entry was evicted meanwhile (``ContentCache/open(_:)`` checks them).
    package func contents() -> Data? { FileManager.default.contents(atPath: path) }

    /// The version as an ETag to ask the server about (`If-None-Match`, a HEAD's ETag); nil for a size-and-mtime
    /// version, which no server answers to.
    package var etag: String? { version.hasPrefix("\"") || version.hasPrefix("W/\"") ? version : nil }
}

/// An entry's file as ``ContentCache/open(_:)`` found it.
package enum CachedBody {
    /// Its bytes match their SHA-256: the handle reads them from the start.
    case intact(FileHandle)
    /// Its bytes do not match: the entry was dropped.
    case damaged(CacheEntry)
    /// The file is gone (evicted meanwhile): a miss.
    case gone
}

/// How full the cache is.
package struct CacheStatistics: Sendable, Equatable, Codable {
    /// Where it lives.
    package var directory: String
    /// Its limit in bytes.
    package var limit: Int64
    /// Entries stored.
    package var entries: Int
    /// Bytes stored (pinned included).
    package var bytes: Int64
    /// Pinned entries.
    package var pinnedEntries: Int
    /// Bytes in pinned entries.
    package var pinnedBytes: Int64
    /// Entries and bytes per kind.
    package var kinds: [String: KindTotals]

    /// Totals for one kind.
    package struct KindTotals: Sendable, Equatable, Codable {
        /// Entries.
        package var entries: Int
        /// Bytes.
        package var bytes: Int64
    }
}

/// What `verify` found and repaired.
package struct CacheVerification: Sendable, Equatable, Codable {
    /// The index was unreadable and was created anew.
    package var rebuiltIndex: Bool = false
    /// Stored files no entry pointed to (a crash between writing and indexing), removed.
    package var orphanFilesRemoved: Int = 0
    /// Entries whose file was missing or of the wrong size, dropped.
    package var entriesDropped: Int = 0
    /// Temp files of processes that no longer run, removed.
    package var staleTempFilesRemoved: Int = 0
    /// Entries evicted because the cache was over its (possibly lowered) limit.
    package var entriesEvicted: Int = 0
    /// Entries whose bytes no longer matched their SHA-256, dropped (pinned ones among them must be pinned again).
    package var damagedEntries: [CacheEntry] = []
    /// Entries whose bytes differ from the server's copy of the same version (admitted damaged, by a build or a
    /// server that could not check them), dropped (pinned ones among them must be pinned again).
    package var differingFromServer: [CacheEntry] = []
    /// Entries whose bytes matched the server's SHA-256.
    package var matchingServer = 0
    /// Entries the server holds a newer version of (kept: they are fetched again when next read online).
    package var outdated = 0
    /// Whether the entries were compared with the server: nil when they were not and why (offline, unreachable, a
    /// server without checksums, whose entries stay checked by size alone).
    package var serverNotAsked: String?

    /// Whether anything needed repair.
    package var repairedAnything: Bool {
        rebuiltIndex || orphanFilesRemoved > 0 || entriesDropped > 0 || staleTempFilesRemoved > 0
            || !damagedEntries.isEmpty || !differingFromServer.isEmpty
    }
}
