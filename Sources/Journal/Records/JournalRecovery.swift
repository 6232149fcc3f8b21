/// A damaged journal replaced at opening: where the old file is, and what of it was carried over.
///
/// Queued writes and unfinished uploads that can still be read are copied into the new journal (a queued write
/// is checked against the server before it is applied, an upload's offset is asked of the server on resume).
/// Unfinished downloads are not: their recorded offsets cannot be trusted, so they start over, and their
/// partial files stay on disk until a rerun claims them.
package struct JournalRecovery: Sendable, Equatable {
    /// The damaged file and where it went.
    package var damaged: DamagedStateFile
    /// Per kind of record (`queued writes`, `unfinished uploads`), how many were carried over; nil when the
    /// old file's table could not be read.
    package var recovered: [String: Int?] = [:]
    /// Unfinished downloads the old file named (they start over); nil when unreadable.
    package var downloadsStartingOver: Int?

    /// Copies what can be read from the damaged file into `database`.
    init(damaged: DamagedStateFile, into database: SQLiteDatabase) {
        self.damaged = damaged
        guard let old = damaged.movedTo, (try? database.execute("ATTACH DATABASE ? AS damaged", [.text(old)])) != nil
        else {
            recovered = ["queued writes": nil, "unfinished uploads": nil]
            return
        }
        defer { _ = try? database.execute("DETACH DATABASE damaged") }
        let queued =
            "INSERT OR IGNORE INTO main.queued_writes SELECT * FROM damaged.queued_writes WHERE state != 'done'"
        recovered["queued writes"] = .some(Self.copied(queued, in: database))
        // The old file is of this build's format (`transfers`) or an older one's tables.
        let older = TransferStateMigration.copyingFormatThree(from: "damaged", into: "main")
        for (kind, name) in [
            (TransferJournal.StateKind.tusUpload, "unfinished uploads"),
            (.objectUpload, "unfinished object-store uploads"),
        ] {
            let copy = """
                INSERT OR IGNORE INTO main.transfers (kind, key, version, state, created)
                SELECT kind, key, version, state, created FROM damaged.transfers WHERE kind = '\(kind.rawValue)'
                """
            let count = Self.copied(copy, in: database) ?? older[kind].flatMap { Self.copied($0, in: database) }
            if count.map({ $0 > 0 }) ?? true || kind == .tusUpload { recovered[name] = .some(count) }
        }
        downloadsStartingOver =
            Self.count(
                "SELECT count(*) FROM damaged.transfers WHERE kind = 'download'", in: database)
            ?? Self.count("SELECT count(*) FROM damaged.downloads", in: database)
    }

    /// How many rows `copy` wrote, in a transaction of its own; nil when it failed (a table unreadable or absent).
    private static func copied(_ copy: String, in database: SQLiteDatabase) -> Int? {
        let copied: Int?? = try? database.writeTransactionReturning { () throws(SQLiteError) -> Int? in
            try database.execute(copy)
        }
        return copied ?? nil
    }

    private static func count(_ query: String, in database: SQLiteDatabase) -> Int? {
        (try? database.query(query))?.first?.first.map { Int($0.int) }
    }

    /// One line for a warning: what was wrong, where the old file is, what was kept and what was lost.
    package var description: String {
        var line = "the journal \(damaged.path) was damaged (\(damaged.reason))"
        line += damaged.movedTo.map { "; it was moved to \($0) and a new one started" } ?? "; a new one was started"
        let kept = recovered.sorted { $0.key < $1.key }.compactMap { kind, count in count.map { "\($0) \(kind)" } }
        var lost = recovered.sorted { $0.key < $1.key }.compactMap { kind, count in count == nil ? kind : nil }
        if damaged.reason.hasPrefix("it was empty") { lost = ["whatever it held"] }
        if !kept.isEmpty { line += "; recovered \(kept.joined(separator: ", "))" }
        if !lost.isEmpty { line += "; lost (unreadable): \(lost.joined(separator: ", "))" }
        if let downloads = downloadsStartingOver, downloads > 0 {
            line += "; \(downloads) unfinished download(s) start over (their partial files are kept)"
        }
        return line
    }
}
