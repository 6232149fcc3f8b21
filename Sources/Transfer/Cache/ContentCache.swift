import FileModel
import Foundation
import HTTP
import Journal
import Platform

/// A content cache with a hard size limit: file bodies, remote previews, listings and AI results, keyed by
/// ``CacheKey`` and the remote file's version, stored as files beside an SQLite index (WAL, busy timeout).
///
/// The limit holds at every moment, not after a sweep: each commit evicts (expired entries first, then the
/// least recently used unpinned ones) inside the same `BEGIN IMMEDIATE` transaction that indexes the new
/// entry, and removes the victims' files before linking the new one in, so neither the index total nor the
/// bytes under `objects/` ever pass the limit. That transaction also serializes several processes sharing
/// one cache. A reader only ever sees complete files: bytes are written and fsync'ed in `tmp/` first and
/// hard-linked into `objects/` whole.
///
/// A crash leaves its temp file (named by process id) in `tmp/`; the next open sees a temp file of a dead
/// process and runs ``verify()``, which drops entries without files and files without entries.
package final class ContentCache: Sendable {
    /// Where the cache lives.
    package let directory: String
    /// The most bytes it holds.
    package let limit: Int64
    /// How long an unpinned entry is served after it was stored; nil keeps entries until evicted.
    package let timeToLive: Double?
    /// The wall time in seconds since 1970 that expiry and use times are written in (the system's; a test's own).
    package let now: @Sendable () -> Double
    /// What opening found and repaired (a crash's leftovers, a corrupt index).
    package var openingReport: CacheVerification { opening.current }
    private let opening = LockedValue(CacheVerification())

    /// The index's writing connection, one caller at a time: a write transaction holds it from `BEGIN` to `COMMIT`
    /// and hands it to its body (``withWriteTransaction(_:)``). Verifying may put a new one in its place.
    let index: LockedValue<SQLiteDatabase>
    /// A second connection for reads outside a transaction (``sql(_:)``), so a listing never waits behind a write
    /// (which may itself wait for another process): in WAL a reader sees the last commit and is not blocked.
    /// Opened by the first such read (most runs only look entries up, in transactions); verifying closes it.
    let reader = LockedValue<SQLiteDatabase?>(nil)
    var indexPath: String { directory + "/index.sqlite" }
    var objectsDirectory: String { directory + "/objects" }
    var temporaryDirectory: String { directory + "/tmp" }

    /// The default limit: 1 GiB.
    package static let defaultLimit: Int64 = 1 << 30

    /// `$XDG_CACHE_HOME/officer-files/content`, else `~/.cache/officer-files/content`.
    package static func defaultDirectory(environment: [String: String]) -> String {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/officer-files/content" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.cache/officer-files/content"
    }

    /// Opens (creating) the cache in `directory`, healing what a crash left. Opening changes nothing else: a cache
    /// holding more than `limit` (a smaller limit given this time) is trimmed to it by the next commit, which makes
    /// room within the limit, or by ``verify(trimming:)``; never by a run that only reads it.
    package init(
        directory: String, limit: Int64 = ContentCache.defaultLimit, timeToLive: Double? = nil,
        now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) throws(CacheError) {
        self.directory = directory
        self.limit = max(0, limit)
        self.timeToLive = timeToLive
        self.now = now
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .io(path: directory, message: (error as NSError).localizedDescription)
        }
        for folder in [directory + "/objects", directory + "/tmp"] {
            if mkdir(folder, 0o700) != 0, errno != EEXIST {
                throw .io(path: folder, message: String(cString: strerror(errno)))
            }
        }
        let rebuilt: Bool
        do {
            let (opened, damaged) = try SQLiteStateFile.open(
                path: directory + "/index.sqlite", schema: Self.indexSchema, ifDamaged: .delete)
            index = LockedValue(opened)
            rebuilt = damaged != nil
        } catch {
            throw .index(error)
        }
        if rebuilt || hasStaleTemporaryFiles() {
            var report = try verify(trimming: false)
            report.rebuiltIndex = rebuilt
            opening.withLock { $0 = report }
        }
    }

    // MARK: Reading

    /// The entry for `key` — only if it was stored for `version` when one is given — marking it used.
    /// Expired entries and entries whose file vanished are dropped and reported as misses.
    package func entry(for key: CacheKey, version: String? = nil) throws(CacheError) -> CacheEntry? {
        try withWriteTransaction { db throws(CacheError) -> CacheEntry? in
            guard let (rowID, entry) = try row(for: key, in: db) else { return nil }
            if let version, entry.version != version { return nil }
            let now = self.now()
            var info = stat()
            if (!entry.pinned && (entry.expires ?? .infinity) < now) || stat(entry.path, &info) != 0
                || Int64(info.st_size) != entry.size
            {
                try deleteRow(rowID, file: entry.path, in: db)
                return nil
            }
            try Self.sql(db) { db throws(SQLiteError) in
                try db.execute("UPDATE totals SET clock = clock + 1 WHERE id = 1")
                try db.execute(
                    "UPDATE entries SET accessed = ?, seq = (SELECT clock FROM totals WHERE id = 1) WHERE rowid = ?",
                    [.real(now), .integer(rowID)])
            }
            var used = entry
            used.accessed = now
            return used
        }
    }

    /// The entry's file, opened (so another process evicting it cannot pull it away) and checked against the
    /// SHA-256 it was stored with — a re-read of a local file, done before the first byte is handed out. A
    /// damaged entry is dropped (``CachedBody/damaged(_:)``); one whose file vanished is a miss.
    package func open(_ entry: CacheEntry) -> CachedBody {
        guard let handle = FileHandle(forReadingAtPath: entry.path) else { return .gone }
        let hasher = SHA256Hasher()
        let intact: Bool
        do {
            try Self.hash(handle.fileDescriptor, into: hasher)
            intact = entry.sha256 == hasher.finalizeHex()
        } catch {
            return .gone
        }
        guard intact else {
            dropDamaged(entry)
            return .damaged(entry)
        }
        lseek(handle.fileDescriptor, 0, SEEK_SET)
        return .intact(handle)
    }

    /// Forgets an entry whose bytes failed their check, unless the key was stored anew meanwhile.
    package func dropDamaged(_ entry: CacheEntry) {
        _ = try? withWriteTransaction { db throws(CacheError) in
            if let (rowID, current) = try row(for: entry.key, in: db), current.path == entry.path {
                try deleteRow(rowID, file: current.path, in: db)
            }
        }
    }

    /// Records that the entry's bytes (still the ones at `entry.path`) matched the remote's `check`: an entry kept
    /// as checked by size alone is verified once the server's digest is asked and equal.
    package func markChecked(_ entry: CacheEntry, by check: ContentCheck) throws(CacheError) {
        try withWriteTransaction { db throws(CacheError) in
            guard let (rowID, current) = try row(for: entry.key, in: db), current.path == entry.path else { return }
            _ = try Self.sql(db) { db throws(SQLiteError) in
                try db.execute(
                    "UPDATE entries SET checked = ? WHERE rowid = ?", [.text(check.rawValue), .integer(rowID)])
            }
        }
    }

    static func hash(_ descriptor: Int32, into hasher: SHA256Hasher) throws(CacheError) {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset: off_t = 0
        while true {
            let count = SystemCalls.retryingInterrupts {
                buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, $0.count, offset) }
            }
            guard count >= 0 else { throw .io(path: "cache", message: String(cString: strerror(errno))) }
            if count == 0 { return }
            buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
            offset += off_t(count)
        }
    }

    /// The bytes stored for `key` (at `version` if given), or nil.
    package func data(for key: CacheKey, version: String? = nil) throws(CacheError) -> Data? {
        guard let entry = try entry(for: key, version: version), case .intact(let handle) = open(entry) else {
            return nil
        }
        return try? handle.readToEnd() ?? Data()
    }

    /// Every entry (or those of one kind), least recently used first, without marking any as used.
    package func entries(kind: String? = nil) throws(CacheError) -> [CacheEntry] {
        try sql { db throws(SQLiteError) in
            try db.query(
                "SELECT \(Self.columns) FROM entries" + (kind == nil ? "" : " WHERE kind = ?") + " ORDER BY seq",
                kind.map { [.text($0)] } ?? []
            ).map { decode($0).1 }
        }
    }

    /// Totals for `cache stats`.
    package func statistics() throws(CacheError) -> CacheStatistics {
        try sql { db throws(SQLiteError) in
            let totals = try db.query("SELECT count, bytes, pinned_bytes FROM totals WHERE id = 1").first ?? []
            let pinned = try db.query("SELECT count(*) FROM entries WHERE pinned = 1").first?.first
            var kinds: [String: CacheStatistics.KindTotals] = [:]
            for row in try db.query("SELECT kind, count(*), sum(size) FROM entries GROUP BY kind") {
                guard case .text(let kind) = row[0] else { continue }
                kinds[kind] = .init(entries: Int(row[1].int64), bytes: row[2].int64)
            }
            return CacheStatistics(
                directory: directory, limit: limit, entries: Int(totals.first?.int64 ?? 0),
                bytes: totals.count > 1 ? totals[1].int64 : 0, pinnedEntries: Int(pinned?.int64 ?? 0),
                pinnedBytes: totals.count > 2 ? totals[2].int64 : 0, kinds: kinds)
        }
    }

    // MARK: Writing

    /// A temp file to write an entry's bytes into before ``commit(_:key:version:pinned:metadata:)``.
    package func stage() throws(CacheError) -> CacheStagedFile {
        try CacheStagedFile(temporaryDirectory: temporaryDirectory)
    }

    /// Stores `data` for `key` at `version` (see ``commit(_:key:version:pinned:metadata:)``).
    @discardableResult
    package func store(
        _ data: Data, for key: CacheKey, version: String, pinned: Bool = false, metadata: [String: String] = [:],
        expected: Checksum? = nil
    )
        throws(CacheError) -> CacheEntry
    {
        let staged = try stage()
        try staged.write(data)
        return try commit(staged, key: key, version: version, pinned: pinned, metadata: metadata, expected: expected)
    }

    /// Stores a copy of a local file's bytes for `key` at `version` (see ``commit(_:key:version:pinned:metadata:)``).
    @discardableResult
    package func store(
        contentsOf path: String, for key: CacheKey, version: String, pinned: Bool = false,
        metadata: [String: String] = [:], expected: Checksum? = nil
    ) throws(CacheError) -> CacheEntry {
        let staged = try stage()
        try staged.write(contentsOf: path)
        return try commit(staged, key: key, version: version, pinned: pinned, metadata: metadata, expected: expected)
    }

    /// The largest entry stored on the way (a download, an AI result): an eighth of the limit, so one big file
    /// never flushes the cache. Explicit pins store any size that fits.
    package var automaticEntryLimit: Int64 { limit / 8 }

    /// Makes staged bytes the entry for `key`, replacing any older version. Evicts what it must first;
    /// when it returns, the cache is within its limit. Throws ``CacheError/tooLarge(key:size:available:)``
    /// when the entry cannot fit beside the pinned ones; the cache is then unchanged. The bytes are admitted only
    /// through ``ContentVerification``: with `expected` (the remote's validator) they must match it, or the cache is
    /// unchanged and ``CacheError/damaged(key:expected:actual:)`` says why; without one the entry is kept as checked
    /// by size alone (``CacheEntry/checkedBy``), never as verified.
    @discardableResult
    package func commit(
        _ staged: CacheStagedFile, key: CacheKey, version: String, pinned: Bool = false,
        metadata: [String: String] = [:], expected: Checksum? = nil
    ) throws(CacheError) -> CacheEntry {
        let size = try staged.finish()
        let digest: String
        let checked: ContentCheck
        do {
            digest = try SHA256Hasher.hash(file: staged.path)
            let verdict =
                expected?.algorithm == .sha256
                ? ContentVerification.check(actual: digest, against: expected)
                : try ContentVerification.check(file: staged.path, against: expected).verdict
            switch verdict {
            case .success(let check): checked = check
            case .failure(let mismatch):
                throw CacheError.damaged(key: key, expected: mismatch.expected.description, actual: mismatch.actual)
            }
        } catch let error as CacheError {
            throw error
        } catch {
            throw .io(path: staged.path, message: "\(error)")
        }
        let name = Self.randomName()
        let folder = objectsDirectory + "/" + name.prefix(2)
        let path = folder + "/" + name
        let now = self.now()
        let metadataText = String(decoding: (try? JSONEncoder().encode(metadata)) ?? Data("{}".utf8), as: UTF8.self)
        let entry = try withWriteTransaction { db throws(CacheError) -> CacheEntry in
            let existing = try row(for: key, in: db)
            let keepPinned = pinned || existing?.1.pinned == true
            let pinnedElsewhere =
                try Self.sql(db) { db throws(SQLiteError) in
                    try db.query("SELECT pinned_bytes FROM totals WHERE id = 1").first?.first?.int64 ?? 0
                } - (existing?.1.pinned == true ? existing!.1.size : 0)
            guard size <= limit - pinnedElsewhere else {
                throw .tooLarge(key: key, size: size, available: max(0, limit - pinnedElsewhere))
            }
            if let (rowID, old) = existing { try deleteRow(rowID, file: old.path, in: db) }
            _ = try evict(toFit: size, in: db)
            if mkdir(folder, 0o700) != 0, errno != EEXIST {
                throw .io(path: folder, message: String(cString: strerror(errno)))
            }
            // A link, not a rename: the temp file stays until the commit, the trace a crash here leaves.
            guard link(staged.path, path) == 0 else { throw .io(path: path, message: String(cString: strerror(errno))) }
            let expires = keepPinned ? nil : timeToLive.map { now + $0 }
            do throws(CacheError) {
                try Self.sql(db) { db throws(SQLiteError) in
                    try db.execute("UPDATE totals SET clock = clock + 1 WHERE id = 1")
                    try db.execute(
                        """
                        INSERT INTO entries (server, root, path, kind, version, size, file, created, accessed, seq, expires, pinned, metadata, sha256, checked)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT clock FROM totals WHERE id = 1), ?, ?, ?, ?, ?)
                        """,
                        [
                            .text(key.server), .text(key.root), .text(key.path), .text(key.kind), .text(version),
                            .integer(size),
                            .text(Self.keptFile(path, in: directory)), .real(now), .real(now),
                            expires.map { .real($0) } ?? .null,
                            .integer(keepPinned ? 1 : 0),
                            .text(metadataText), .text(digest), .text(checked.rawValue),
                        ])
                }
            } catch {
                unlink(path)
                throw error
            }
            return CacheEntry(
                key: key, version: version, size: size, path: path, created: now, accessed: now, expires: expires,
                pinned: keepPinned, metadata: metadata, sha256: digest, checkedBy: checked)
        }
        staged.isCommitted = true
        unlink(staged.path)
        return entry
    }

    /// Pins or unpins the entry for `key`; pinned entries are never evicted and never expire. Pinned entries
    /// never hold more than the limit: a pin that would pass it is refused (``CacheError/tooLarge(key:size:available:)``),
    /// as a commit of the same entry would be.
    package func setPinned(_ pinned: Bool, for key: CacheKey) throws(CacheError) {
        try withWriteTransaction { db throws(CacheError) in
            if pinned, let (_, entry) = try row(for: key, in: db), !entry.pinned {
                let pinnedBytes = try Self.sql(db) { db throws(SQLiteError) in
                    try db.query("SELECT pinned_bytes FROM totals WHERE id = 1").first?.first?.int64 ?? 0
                }
                guard entry.size <= limit - pinnedBytes else {
                    throw .tooLarge(key: key, size: entry.size, available: max(0, limit - pinnedBytes))
                }
            }
            let changed = try Self.sql(db) { db throws(SQLiteError) in
                try db.execute(
                    "UPDATE entries SET pinned = ?, expires = ? WHERE server = ? AND root = ? AND path = ? AND kind = ?",
                    [
                        .integer(pinned ? 1 : 0),
                        pinned ? .null : timeToLive.map { .real(now() + $0) } ?? .null,
                        .text(key.server), .text(key.root), .text(key.path), .text(key.kind),
                    ])
            }
            guard changed > 0 else { throw .notCached(key: key) }
        }
    }

    /// Removes the entry for `key`; returns whether there was one.
    @discardableResult
    package func remove(_ key: CacheKey) throws(CacheError) -> Bool {
        try withWriteTransaction { db throws(CacheError) -> Bool in
            guard let (rowID, entry) = try row(for: key, in: db) else { return false }
            try deleteRow(rowID, file: entry.path, in: db)
            return true
        }
    }

    /// Removes every unpinned entry (every entry with `includingPinned`); returns how many and their bytes.
    @discardableResult
    package func clear(includingPinned: Bool = false) throws(CacheError) -> (entries: Int, bytes: Int64) {
        try withWriteTransaction { db throws(CacheError) -> (entries: Int, bytes: Int64) in
            let victims = try Self.sql(db) { db throws(SQLiteError) in
                try db.query("SELECT rowid, file, size FROM entries" + (includingPinned ? "" : " WHERE pinned = 0"))
            }
            for victim in victims {
                try deleteRow(victim[0].int64, file: Self.file(victim[1].text, in: directory), in: db)
            }
            return (victims.count, victims.reduce(0) { $0 + $1[2].int64 })
        }
    }

    // MARK: Internals

    static let columns =
        "rowid, server, root, path, kind, version, size, file, created, accessed, expires, pinned, metadata, sha256, checked"

    /// The row of `key` in the index `db` (held by the caller).
    func row(for key: CacheKey, in db: SQLiteDatabase) throws(CacheError) -> (Int64, CacheEntry)? {
        try Self.sql(db) { db throws(SQLiteError) in
            try db.query(
                "SELECT \(Self.columns) FROM entries WHERE server = ? AND root = ? AND path = ? AND kind = ?",
                [.text(key.server), .text(key.root), .text(key.path), .text(key.kind)]
            ).first.map(decode)
        }
    }

    func decode(_ row: [SQLiteValue]) -> (Int64, CacheEntry) {
        let metadata = (try? JSONDecoder().decode([String: String].self, from: Data(row[12].text.utf8))) ?? [:]
        let expires: Double? = if case .real(let value) = row[10] { value } else { nil }
        return (
            row[0].int64,
            CacheEntry(
                key: CacheKey(server: row[1].text, root: row[2].text, path: row[3].text, kind: row[4].text),
                version: row[5].text,
                size: row[6].int64, path: Self.file(row[7].text, in: directory), created: row[8].real,
                accessed: row[9].real, expires: expires,
                pinned: row[11].int64 != 0, metadata: metadata, sha256: row[13].optionalText,
                checkedBy: ContentCheck(rawValue: row[14].text) ?? .size)
        )
    }

    /// How an entry's file is kept in the index: relative to the cache's folder, so a cache moved with its app's
    /// container keeps its entries.
    static func keptFile(_ path: String, in directory: String) -> String {
        path.hasPrefix(directory + "/") ? String(path.dropFirst(directory.count + 1)) : path
    }

    /// The file an index row names: relative to the cache's folder, or absolute (written by an older build).
    static func file(_ kept: String, in directory: String) -> String {
        kept.hasPrefix("/") ? kept : directory + "/" + kept
    }

    /// Removes the file first: should the transaction then roll back, the row points at nothing and is
    /// dropped as a miss, while the opposite order could leave bytes that no limit counts.
    func deleteRow(_ rowID: Int64, file: String, in db: SQLiteDatabase) throws(CacheError) {
        if unlink(file) != 0, errno != ENOENT { throw .io(path: file, message: String(cString: strerror(errno))) }
        _ = try Self.sql(db) { db throws(SQLiteError) in
            try db.execute("DELETE FROM entries WHERE rowid = ?", [.integer(rowID)])
        }
    }

    /// Evicts expired, then least recently used, unpinned entries until `incoming` more bytes fit, in the index `db`
    /// of a write transaction.
    func evict(toFit incoming: Int64, in db: SQLiteDatabase) throws(CacheError) -> Int {
        var evicted = 0
        let now = self.now()
        for query in [
            // Pinned entries never carry an expiry, so the partial index alone finds the expired ones.
            "SELECT rowid, file, size FROM entries INDEXED BY entries_expiry WHERE expires IS NOT NULL AND expires < \(now) ORDER BY expires LIMIT 64",
            "SELECT rowid, file, size FROM entries WHERE pinned = 0 ORDER BY seq LIMIT 64",
        ] {
            while true {
                let stored = try Self.sql(db) { db throws(SQLiteError) in
                    try db.query("SELECT bytes FROM totals WHERE id = 1").first?.first?.int64 ?? 0
                }
                var excess = stored + incoming - limit
                guard excess > 0 else { return evicted }
                let victims = try Self.sql(db) { db throws(SQLiteError) in try db.query(query) }
                if victims.isEmpty { break }
                for victim in victims where excess > 0 {
                    try deleteRow(victim[0].int64, file: Self.file(victim[1].text, in: directory), in: db)
                    excess -= victim[2].int64
                    evicted += 1
                }
            }
        }
        return evicted
    }

    /// Runs `body` in a write transaction on the index, which it is handed (and nothing else reaches meanwhile):
    /// committed when it returns, rolled back when it throws.
    func withWriteTransaction<T>(_ body: (SQLiteDatabase) throws(CacheError) -> T) throws(CacheError) -> T {
        try index.withLock { database -> Result<T, CacheError> in
            do throws(SQLiteError) { try database.execute("BEGIN IMMEDIATE") } catch { return .failure(.index(error)) }
            do throws(CacheError) {
                let result = try body(database)
                do throws(SQLiteError) { try database.execute("COMMIT") } catch { throw CacheError.index(error) }
                return .success(result)
            } catch {
                _ = try? database.execute("ROLLBACK")
                return .failure(error)
            }
        }.get()
    }

    /// Runs reading statements on the index outside a write transaction, on the reading connection.
    func sql<T>(_ body: (SQLiteDatabase) throws(SQLiteError) -> T) throws(CacheError) -> T {
        let path = indexPath
        return try reader.withLock { database in
            Result { () throws(SQLiteError) in
                let opened: SQLiteDatabase
                if let database { opened = database } else { opened = try SQLiteDatabase(path: path) }
                database = opened
                return try body(opened)
            }
        }.mapError { CacheError.index($0) }.get()
    }

    /// Runs statements on the index `db` a caller holds (inside ``withWriteTransaction(_:)``).
    static func sql<T>(_ db: SQLiteDatabase, _ body: (SQLiteDatabase) throws(SQLiteError) -> T) throws(CacheError)
        -> T
    {
        do { return try body(db) } catch { throw .index(error) }
    }

    static func randomName() -> String {
        let value = (UInt64.random(in: .min ... .max), UInt64.random(in: .min ... .max))
        return hex(value.0) + hex(value.1)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

extension SQLiteValue {
    var int64: Int64 {
        switch self {
        case .integer(let value): value
        case .real(let value): Int64(value)
        default: 0
        }
    }
    var real: Double {
        switch self {
        case .integer(let value): Double(value)
        case .real(let value): value
        default: 0
        }
    }
    var text: String { if case .text(let value) = self { value } else { "" } }
    var optionalText: String? { if case .text(let value) = self { value } else { nil } }
}
