import Officer
import Transfer

/// One cached item in JSON (`cache ls`): schema `cache-entry`.
struct CacheEntryRecord: Encodable, Sendable {
    /// The remote file it is of (`officer:/x`).
    var path: String
    /// `body`, `preview`, `facts`, `listing`, `thumbnail`, or an action's result (`ai/ocr?language=eng`).
    var kind: String
    var size: Int64
    var pinned: Bool
    var created: JSONTime
    var accessed: JSONTime
    var expires: JSONTime?
    /// The remote version it holds (an ETag, or size and time).
    var version: String
    var sha256: String?
    /// The file on this machine that holds it.
    var file: String

    init(_ entry: CacheEntry, names: LocationNames) {
        path = names.location(server: entry.key.server, root: entry.key.root, path: entry.key.path)
        kind = entry.key.kind
        size = entry.size
        pinned = entry.pinned
        created = JSONTime(entry.created)
        accessed = JSONTime(entry.accessed)
        expires = JSONTime(entry.expires)
        version = entry.version
        sha256 = entry.sha256
        file = entry.path
    }
}

/// What `cache clear` removed: schema `cache-cleared`.
struct CacheClearedRecord: Encodable, Sendable {
    var entries: Int
    var size: Int64
}

/// A file pinned or unpinned (`cache pin`, `cache unpin`): schema `pinned`.
struct PinnedRecord: Encodable, Sendable {
    var path: String
    var pinned: Bool
    /// Bytes of the cached copy (absent on unpin).
    var size: Int64?
    /// True when it was in the cache before (nothing was fetched).
    var wasCached: Bool?
}

/// What `cache verify` found and repaired: schema `cache-verified`.
struct CacheVerifiedRecord: Encodable, Sendable {
    var rebuiltIndex: Bool
    var orphanFilesRemoved: Int
    var entriesDropped: Int
    var staleTempFilesRemoved: Int
    var entriesEvicted: Int
    /// The damaged entries dropped, as locations.
    var damaged: [String]
    /// Entries whose bytes differed from the server's copy of the same version, dropped, as locations.
    var differingFromServer: [String]
    /// Entries whose bytes matched the server's SHA-256.
    var matchingServer: Int
    /// Entries the server holds a newer version of (kept).
    var outdated: Int
    /// Why the entries were not compared with the server, when they were not.
    var serverNotAsked: String?
}
