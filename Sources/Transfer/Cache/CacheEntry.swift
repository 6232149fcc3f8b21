import Foundation
import HTTP

/// One stored entry: its key and version, where its bytes are, and its bookkeeping.
public struct CacheEntry: Sendable, Equatable, Codable {
    /// What it is for.
    public var key: CacheKey
    /// The remote file's version it was stored for (ETag, or size and mtime).
    public var version: String
    /// Bytes stored.
    public var size: Int64
    /// The file holding the bytes. It may vanish once another process evicts the entry: open it and treat
    /// a failure as a miss (an open descriptor stays readable after eviction).
    public var path: String
    /// When it was stored (seconds since 1970).
    public var created: Double
    /// When it was last read or stored.
    public var accessed: Double
    /// When it stops being served (seconds since 1970), if the cache has a time to live.
    public var expires: Double?
    /// Pinned entries are kept for offline use and never evicted.
    public var pinned: Bool
    /// Small facts stored with it (content type, original name…).
    public var metadata: [String: String]
    /// The SHA-256 of the stored bytes (hex), checked before they are handed out; nil only for an entry whose
    /// file was already gone when the index gained the column.
    public var sha256: String?

    /// The stored bytes unchecked, or nil if the entry was evicted meanwhile (``ContentCache/open(_:)`` checks them).
    public func contents() -> Data? { FileManager.default.contents(atPath: path) }

    /// The version as an ETag to ask the server about (`If-None-Match`, a HEAD's ETag); nil for a size-and-mtime
    /// version, which no server answers to.
    public var etag: String? { version.hasPrefix("\"") || version.hasPrefix("W/\"") ? version : nil }
}

/// An entry's file as ``ContentCache/open(_:)`` found it.
public enum CachedBody {
    /// Its bytes match their SHA-256: the handle reads them from the start.
    case intact(FileHandle)
    /// Its bytes do not match: the entry was dropped.
    case damaged(CacheEntry)
    /// The file is gone (evicted meanwhile): a miss.
    case gone
}

/// How full the cache is.
public struct CacheStatistics: Sendable, Equatable, Codable {
    /// Where it lives.
    public var directory: String
    /// Its limit in bytes.
    public var limit: Int64
    /// Entries stored.
    public var entries: Int
    /// Bytes stored (pinned included).
    public var bytes: Int64
    /// Pinned entries.
    public var pinnedEntries: Int
    /// Bytes in pinned entries.
    public var pinnedBytes: Int64
    /// Entries and bytes per kind.
    public var kinds: [String: KindTotals]

    /// Totals for one kind.
    public struct KindTotals: Sendable, Equatable, Codable {
        /// Entries.
        public var entries: Int
        /// Bytes.
        public var bytes: Int64
    }
}

/// What `verify` found and repaired.
public struct CacheVerification: Sendable, Equatable, Codable {
    /// The index was unreadable and was created anew.
    public var rebuiltIndex: Bool = false
    /// Stored files no entry pointed to (a crash between writing and indexing), removed.
    public var orphanFilesRemoved: Int = 0
    /// Entries whose file was missing or of the wrong size, dropped.
    public var entriesDropped: Int = 0
    /// Temp files of processes that no longer run, removed.
    public var staleTempFilesRemoved: Int = 0
    /// Entries evicted because the cache was over its (possibly lowered) limit.
    public var entriesEvicted: Int = 0
    /// Entries whose bytes no longer matched their SHA-256, dropped (pinned ones among them must be pinned again).
    public var damagedEntries: [CacheEntry] = []

    /// Whether anything needed repair.
    public var repairedAnything: Bool {
        rebuiltIndex || orphanFilesRemoved > 0 || entriesDropped > 0 || staleTempFilesRemoved > 0
            || !damagedEntries.isEmpty
    }
}
