import Foundation
import HTTP
import Journal

extension ContentCache {
    /// Checks the index and the files against each other and repairs what does not match: an unreadable
    /// index is created anew, entries whose file is missing or of the wrong size are dropped, every stored file
    /// is read and one whose bytes no longer match their SHA-256 is dropped (and listed), files no entry
    /// names are removed, temp files of processes that no longer run are removed, and (`trimming`) the cache is
    /// trimmed to its limit. Holds the write lock throughout, so no other process commits meanwhile.
    package func verify(trimming: Bool = true) throws(CacheError) -> CacheVerification {
        var report = CacheVerification()
        let check = try? sql { db throws(SQLiteError) in try db.query("PRAGMA quick_check").first?.first?.text }
        if check != "ok" {
            let path = indexPath
            try index.withLock { database in
                Result { () throws(CacheError) in database = try Self.recreateIndex(path) }
            }.get()
            reader.withLock { $0 = nil }  // it read the old file; the next read opens the new one
            report.rebuiltIndex = true
        }
        try withWriteTransaction { db throws(CacheError) in
            for name in Self.names(in: temporaryDirectory) where !Self.isAlive(writerOf: name) {
                if unlink(temporaryDirectory + "/" + name) == 0 { report.staleTempFilesRemoved += 1 }
            }
            let rows = try Self.sql(db) { db throws(SQLiteError) in try db.query("SELECT \(Self.columns) FROM entries")
            }
            var known = Set<String>()
            for row in rows {
                let (rowID, entry) = decode(row)
                var info = stat()
                if stat(entry.path, &info) != 0 || Int64(info.st_size) != entry.size {
                    try deleteRow(rowID, file: entry.path, in: db)
                    report.entriesDropped += 1
                } else if entry.sha256 == nil || Self.digest(ofFile: entry.path) != entry.sha256 {
                    try deleteRow(rowID, file: entry.path, in: db)
                    report.damagedEntries.append(entry)
                } else {
                    known.insert(entry.path)
                }
            }
            for folder in Self.names(in: objectsDirectory) {
                let folderPath = objectsDirectory + "/" + folder
                for name in Self.names(in: folderPath) where !known.contains(folderPath + "/" + name) {
                    if unlink(folderPath + "/" + name) == 0 { report.orphanFilesRemoved += 1 }
                }
            }
            if trimming { report.entriesEvicted = try evict(toFit: 0, in: db) }
        }
        return report
    }

    /// Whether `tmp/` holds a temp file of a process that is gone: the mark of a crash mid-insert.
    func hasStaleTemporaryFiles() -> Bool {
        Self.names(in: temporaryDirectory).contains { !Self.isAlive(writerOf: $0) }
    }

    static func names(in folder: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    }

    /// Temp files are named `PID.RANDOM`.
    static func isAlive(writerOf name: String) -> Bool {
        guard let pid = name.split(separator: ".").first.flatMap({ Int32($0) }), pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }

    /// The index's format. Version 1 is the layout of every build before versions were kept (their files, of
    /// `user_version` 0, are taken as they are); version 2 gives every entry its SHA-256, computed from the
    /// stored file when the index is upgraded; version 3 says what each entry's bytes matched before they were
    /// admitted (`checked`: `sha256`, `md5` or `size`; older entries are taken as checked by size alone). Add a step for each change; never edit a released one.
    static let indexSchema = SQLiteSchema([
        { database in
            try database.execute(
                """
                CREATE TABLE IF NOT EXISTS entries (
                    server TEXT NOT NULL, root TEXT NOT NULL, path TEXT NOT NULL, kind TEXT NOT NULL,
                    version TEXT NOT NULL, size INTEGER NOT NULL, file TEXT NOT NULL,
                    created REAL NOT NULL, accessed REAL NOT NULL, seq INTEGER NOT NULL, expires REAL,
                    pinned INTEGER NOT NULL DEFAULT 0, metadata TEXT NOT NULL DEFAULT '{}',
                    PRIMARY KEY (server, root, path, kind))
                """)
            try database.execute("CREATE INDEX IF NOT EXISTS entries_lru ON entries (pinned, seq)")
            try database.execute(
                "CREATE INDEX IF NOT EXISTS entries_expiry ON entries (expires) WHERE expires IS NOT NULL")
            // Totals kept by triggers, so the limit check on every insert reads one row instead of summing.
            try database.execute(
                """
                CREATE TABLE IF NOT EXISTS totals (id INTEGER PRIMARY KEY CHECK (id = 1), count INTEGER NOT NULL,
                    bytes INTEGER NOT NULL, pinned_bytes INTEGER NOT NULL, clock INTEGER NOT NULL)
                """)
            try database.execute("INSERT OR IGNORE INTO totals VALUES (1, 0, 0, 0, 0)")
            try database.execute(
                """
                CREATE TRIGGER IF NOT EXISTS entries_added AFTER INSERT ON entries BEGIN
                    UPDATE totals SET count = count + 1, bytes = bytes + NEW.size,
                        pinned_bytes = pinned_bytes + NEW.pinned * NEW.size WHERE id = 1; END
                """)
            try database.execute(
                """
                CREATE TRIGGER IF NOT EXISTS entries_removed AFTER DELETE ON entries BEGIN
                    UPDATE totals SET count = count - 1, bytes = bytes - OLD.size,
                        pinned_bytes = pinned_bytes - OLD.pinned * OLD.size WHERE id = 1; END
                """)
            try database.execute(
                """
                CREATE TRIGGER IF NOT EXISTS entries_changed AFTER UPDATE OF size, pinned ON entries BEGIN
                    UPDATE totals SET bytes = bytes + NEW.size - OLD.size,
                        pinned_bytes = pinned_bytes + NEW.pinned * NEW.size - OLD.pinned * OLD.size WHERE id = 1; END
                """)
        },
        { database in
            try database.execute("ALTER TABLE entries ADD COLUMN sha256 TEXT")
            // A file that is gone keeps no digest, and verify drops its entry.
            for row in try database.query("SELECT rowid, file FROM entries") {
                guard let digest = ContentCache.digest(ofFile: row[1].text) else { continue }
                try database.execute(
                    "UPDATE entries SET sha256 = ? WHERE rowid = ?", [.text(digest), .integer(row[0].int64)])
            }
        },
        { database in
            try database.execute("ALTER TABLE entries ADD COLUMN checked TEXT NOT NULL DEFAULT 'size'")
        },
    ])

    /// The SHA-256 of a stored file, nil when it cannot be read.
    static func digest(ofFile path: String) -> String? { try? SHA256Hasher.hash(file: path) }

    /// Deletes an unreadable index and starts an empty one; ``verify()`` then removes the files it named.
    static func recreateIndex(_ path: String) throws(CacheError) -> SQLiteDatabase {
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
        do { return try SQLiteStateFile.open(path: path, schema: indexSchema, ifDamaged: .delete).0 } catch {
            throw .index(error)
        }
    }
}
