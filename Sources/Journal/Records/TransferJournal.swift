import FileModel
import Foundation
import Platform

/// The durable record of unfinished transfers (SQLite in WAL mode), so a rerun after any interruption —
/// SIGKILL included — continues from what is on disk. Safe to share between tasks; several processes
/// may use one file (SQLite's locking and a busy timeout).
package final class TransferJournal: Sendable {
    /// The connection, used by one caller at a time.
    private let database: LockedValue<SQLiteDatabase>
    /// Told after each write of this process through this journal (``observeWrites(_:)``).
    private let writeObservers = LockedValue<[UUID: @Sendable () -> Void]>([:])
    /// The journal file.
    package let path: String
    /// How the local paths it keeps are written: relative to the base folders this run declares, so a moved
    /// container finds its half-done transfers again.
    package let anchors: PathAnchors

    /// One byte range of a download and how much of it is stored.
    package struct Segment: Sendable, Equatable, Codable {
        /// Position in the download.
        package var index: Int
        /// First byte offset.
        package var start: Int64
        /// Last byte offset (inclusive).
        package var end: Int64
        /// Bytes of the range written to the temp file (in the page cache at least).
        package var done: Int64
        /// Bytes of the range known to be on stable storage (fdatasync'd).
        package var synced: Int64

        /// Bytes in the range.
        package var length: Int64 { end - start + 1 }

        /// A range of a download and its progress.
        package init(index: Int, start: Int64, end: Int64, done: Int64, synced: Int64) {
            self.index = index
            self.start = start
            self.end = end
            self.done = done
            self.synced = synced
        }
    }

    /// An unfinished download: the state its machine (`SegmentedDownloadMachine`) continues from, kept as a
    /// versioned JSON value (``JournaledState``).
    package struct Download: Sendable, Equatable, Codable {
        /// The final file name it is for.
        package var destination: String
        /// The URL fetched.
        package var url: String
        /// The temp file beside the destination.
        package var tempPath: String
        /// Strong ETag at the start.
        package var etag: String?
        /// Last-Modified at the start.
        package var lastModified: String?
        /// Total length.
        package var total: Int64?
        /// The kernel boot the `done` offsets were written in: after a reboot only `synced` is trusted.
        package var bootID: String
        /// Its ranges.
        package var segments: [Segment]
        /// The name of the remote it was started from (an S3 remote's, whose keys sign its requests): another
        /// remote with the same endpoint may hold other keys. Nil for a plain URL, and in records of older builds.
        package var source: String? = nil

        /// A download's record.
        package init(
            destination: String, url: String, tempPath: String, etag: String?, lastModified: String?, total: Int64?,
            bootID: String,
            segments: [Segment], source: String? = nil
        ) {
            self.destination = destination
            self.url = url
            self.tempPath = tempPath
            self.etag = etag
            self.lastModified = lastModified
            self.total = total
            self.bootID = bootID
            self.segments = segments
            self.source = source
        }
    }

    /// What opening found: nil, or the damaged journal it moved aside and what it could take from it.
    package let openingReport: JournalRecovery?

    /// Opens (creating) the journal at `path`, migrated to this build's format. A journal that fails its
    /// integrity check (or was truncated to nothing) is moved aside as `journal.sqlite.damaged-TIME` and a fresh
    /// one created, with the queued writes and unfinished uploads that can still be read copied over (see
    /// ``openingReport``); a journal written by a newer build is refused and left as it is.
    /// Opens an existing journal as it is, with no check, repair or migration: for a reader that watches a
    /// journal another connection writes (a test following an upload), and must never replace it.
    package init(watching path: String, anchors: PathAnchors = PathAnchors()) throws(SQLiteError) {
        let opened = try SQLiteDatabase(path: path)
        database = LockedValue(opened)
        self.path = opened.path
        self.anchors = anchors
        openingReport = nil
    }

    /// Opens (creating) the journal at `path`, repairing or replacing a damaged one (``openingReport`` says what
    /// was done); local paths are kept relative to `anchors`.
    package init(path: String, anchors: PathAnchors = PathAnchors()) throws(SQLiteError) {
        self.anchors = anchors
        let directory = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let (database, damaged) = try SQLiteStateFile.open(path: path, schema: Self.schema, ifDamaged: .moveAside)
        self.database = LockedValue(database)
        self.path = database.path
        openingReport = damaged.map { JournalRecovery(damaged: $0, into: database) }
    }

    /// The journal's format. Version 1 is the layout every build before versions were kept wrote (so their files,
    /// of `user_version` 0, are taken as they are). Add a step for each change; never edit a released one.
    static let schema = SQLiteSchema([
        { database in
            for table in [
                """
                CREATE TABLE IF NOT EXISTS downloads (
                    destination TEXT PRIMARY KEY, url TEXT NOT NULL, temp_path TEXT NOT NULL,
                    etag TEXT, last_modified TEXT, total INTEGER, boot_id TEXT NOT NULL, created REAL NOT NULL)
                """,
                """
                CREATE TABLE IF NOT EXISTS download_segments (
                    destination TEXT NOT NULL, idx INTEGER NOT NULL, start INTEGER NOT NULL, end INTEGER NOT NULL,
                    done INTEGER NOT NULL DEFAULT 0, synced INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (destination, idx))
                """,
                """
                CREATE TABLE IF NOT EXISTS uploads (
                    key TEXT PRIMARY KEY, local_path TEXT NOT NULL, label TEXT NOT NULL, target TEXT NOT NULL,
                    fingerprint TEXT NOT NULL, parts TEXT NOT NULL, created REAL NOT NULL)
                """,
                """
                CREATE TABLE IF NOT EXISTS queued_writes (
                    id INTEGER PRIMARY KEY AUTOINCREMENT, created REAL NOT NULL, write TEXT NOT NULL,
                    state TEXT NOT NULL, note TEXT)
                """,
                """
                CREATE TABLE IF NOT EXISTS object_times (
                    endpoint TEXT NOT NULL, bucket TEXT NOT NULL, object_key TEXT NOT NULL, etag TEXT NOT NULL,
                    size INTEGER NOT NULL, mtime REAL NOT NULL, PRIMARY KEY (endpoint, bucket, object_key))
                """,
                "CREATE TABLE IF NOT EXISTS object_uploads (key TEXT PRIMARY KEY, record TEXT NOT NULL, created REAL NOT NULL)",
            ] {
                try database.execute(table)
            }
        },
        // 1 -> 2: what each server offers beyond the seed's endpoints, learnt once and remembered for a day.
        { database in
            try database.execute(
                """
                CREATE TABLE IF NOT EXISTS server_offers (
                    server TEXT NOT NULL, proposal TEXT NOT NULL, offered INTEGER NOT NULL, learnt REAL NOT NULL,
                    PRIMARY KEY (server, proposal))
                """)
        },
        // 2 -> 3: the remote a download was started from.
        { database in try database.execute("ALTER TABLE downloads ADD COLUMN source TEXT") },
        // 3 -> 4 (0.4 wrote 3): every transfer one row of `transfers`, its state a versioned JSON value.
        { database in
            try database.execute(
                """
                CREATE TABLE transfers (
                    kind TEXT NOT NULL, key TEXT NOT NULL, version INTEGER NOT NULL, state TEXT NOT NULL,
                    created REAL NOT NULL, PRIMARY KEY (kind, key))
                """)
            for statement in TransferStateMigration.copyingFormatThree(from: "main", into: "main").values {
                try database.execute(statement)
            }
            for table in ["download_segments", "downloads", "uploads", "object_uploads"] {
                try database.execute("DROP TABLE \(table)")
            }
        },
    ])

    /// The format version this build writes.
    package static var formatVersion: Int { schema.version }

    /// Runs journal SQL under the connection lock (for extensions in other files).
    @discardableResult
    package func withDatabase<T>(_ body: (SQLiteDatabase) throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        try locked(body)
    }

    /// Every unfinished download, oldest first; one kept under a base folder this run does not declare is left
    /// out (and kept for a run that does).
    package func downloads() throws(SQLiteError) -> [Download] { try states(Download.self) }

    /// `$XDG_STATE_HOME/officer-files/journal.sqlite`, default `~/.local/state/officer-files/journal.sqlite`.
    package static func defaultPath(environment: [String: String]) -> String {
        let base: String
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            base = state
        } else {
            base = (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state"
        }
        return base + "/officer-files/journal.sqlite"
    }

    /// This boot of the kernel, to tell a crashed process (page cache intact) from a crashed machine.
    package static let currentBootID: String = BootSession.identifier

    /// The unfinished download for `destination`, if any.
    package func download(for destination: String) throws(SQLiteError) -> Download? {
        try state(Download.self, key: destination)
    }

    /// The forms a record of `path` may be kept under: relative to its base folder, then (written by a build or
    /// a run that declared no such folder) absolute.
    package func keptForms(_ path: String) -> [String] {
        let kept = anchors.kept(path)
        return kept == path ? [path] : [kept, path]
    }

    /// The same for a key whose last line is a local path (uploads are keyed by endpoint, target and file).
    package func keptKeyForms(_ key: String) -> [String] {
        guard let newline = key.lastIndex(of: "\n") else { return keptForms(key) }
        let head = String(key[...newline])
        return keptForms(String(key[key.index(after: newline)...])).map { head + $0 }
    }

    /// Records a new download (replacing any old record for the destination).
    package func save(_ download: Download) throws(SQLiteError) { try saveState(download, key: download.destination) }

    /// Records progress of some segments in one transaction; `synced` only when given.
    package func updateProgress(destination: String, _ updates: [(index: Int, done: Int64, synced: Int64?)])
        throws(SQLiteError)
    {
        guard !updates.isEmpty else { return }
        try updateState(Download.self, key: destination) { download in
            for update in updates {
                guard let position = download.segments.firstIndex(where: { $0.index == update.index }) else { continue }
                download.segments[position].done = update.done
                if let synced = update.synced { download.segments[position].synced = synced }
            }
        }
    }

    /// Marks the record as written in this boot.
    package func claimBoot(destination: String) throws(SQLiteError) {
        try updateState(Download.self, key: destination) { $0.bootID = Self.currentBootID }
    }

    /// Forgets a download (finished, or started over), in whichever form it was kept.
    package func remove(destination: String) throws(SQLiteError) { try removeState(Download.self, key: destination) }

    @discardableResult
    private func locked<T>(_ body: (SQLiteDatabase) throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        let (result, wrote) = database.withLock { database -> (Result<T, SQLiteError>, Bool) in
            let before = database.totalChanges
            let result: Result<T, SQLiteError>
            do throws(SQLiteError) { result = .success(try body(database)) } catch { result = .failure(error) }
            return (result, database.totalChanges != before)
        }
        if wrote { for observer in writeObservers.current.values { observer() } }
        return try result.get()
    }

    /// Calls `observer` after every write this process makes through this journal (another process's writes are
    /// seen by ``changeStamp()``); until ``stopObservingWrites(_:)`` with the id returned.
    package func observeWrites(_ observer: @escaping @Sendable () -> Void) -> UUID {
        let id = UUID()
        writeObservers.withLock { $0[id] = observer }
        return id
    }

    /// Stops an observer ``observeWrites(_:)`` added.
    package func stopObservingWrites(_ id: UUID) { writeObservers.withLock { $0[id] = nil } }
}

extension SQLiteValue {
    /// The value as an integer (0 for NULL and text).
    package var int: Int64 { if case .integer(let value) = self { value } else { Int64(number) } }
    /// The value as a number (0 for NULL and text).
    package var number: Double {
        switch self {
        case .integer(let value): Double(value)
        case .real(let value): value
        default: 0
        }
    }
    /// The value as an integer, nil for NULL.
    package var optionalInt: Int64? { if case .null = self { nil } else { int } }
    /// The value as text, nil unless it is text.
    package var string: String? { if case .text(let value) = self { value } else { nil } }
}

extension TransferJournal.Download: JournaledState {
    /// Downloads' rows.
    package static var stateKind: TransferJournal.StateKind { .download }
    /// The first JSON form (0.4's tables are migrated into it).
    package static var stateVersion: Int { 1 }

    /// The destination and the temp file mapped.
    package func mappingPaths(_ transform: (String) -> String?) -> Self? {
        guard let destination = transform(destination), let tempPath = transform(tempPath) else { return nil }
        var mapped = self
        mapped.destination = destination
        mapped.tempPath = tempPath
        return mapped
    }
}
