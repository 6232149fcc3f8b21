import FileModel
import Foundation

extension TransferJournal {
    /// Where a queued write is.
    package enum QueueState: String, Codable, Sendable {
        /// Waiting to be replayed.
        case pending
        /// Not applied: what it expected no longer holds on the server (see the note).
        case conflict
        /// Not applied: an earlier write it depends on is held.
        case blocked
        /// Applied (or found applied) on the server.
        case done
    }

    /// A write kept in the journal until the server can be reached.
    package struct QueuedItem: Sendable, Equatable, Codable {
        /// Creates an item record.
        package init(id: Int64, created: Double, write: QueuedWrite, state: QueueState, note: String?) {
            self.id = id
            self.created = created
            self.write = write
            self.state = state
            self.note = note
        }

        /// Its number, in the order queued.
        package var id: Int64
        /// Seconds since 1970 when it was queued.
        package var created: Double
        /// What to do.
        package var write: QueuedWrite
        /// Where it is.
        package var state: QueueState
        /// Why it is held, in words.
        package var note: String?
    }

    /// Keeps a write for later; its number.
    @discardableResult
    package func enqueue(_ write: QueuedWrite) throws(SQLiteError) -> Int64 {
        var write = write
        write.local = write.local.map(anchors.kept)
        let text = String(decoding: (try? JSONEncoder().encode(write)) ?? Data(), as: UTF8.self)
        return try withDatabase { database throws(SQLiteError) -> Int64 in
            try database.execute(
                "INSERT INTO queued_writes (created, write, state) VALUES (?, ?, 'pending')",
                [.real(Date().timeIntervalSince1970), .text(text)])
            return try database.query("SELECT last_insert_rowid()").first?.first?.int ?? 0
        }
    }

    /// Every queued write not yet done, oldest first.
    package func queuedWrites(includingDone: Bool = false) throws(SQLiteError) -> [QueuedItem] {
        try withDatabase { database throws(SQLiteError) -> [QueuedItem] in
            let rows = try database.query(
                "SELECT id, created, write, state, note FROM queued_writes"
                    + (includingDone ? "" : " WHERE state != 'done'") + " ORDER BY id")
            return rows.compactMap { row -> QueuedItem? in
                guard let text = row[2].string,
                    var write = try? JSONDecoder().decode(QueuedWrite.self, from: Data(text.utf8)),
                    let state = row[3].string.flatMap(QueueState.init(rawValue:))
                else { return nil }
                // Under a base folder this run does not declare, the file is named as kept: its replay then
                // fails on that name and is held, and the writes after it wait, as for any missing file.
                write.local = write.local.map { anchors.path($0) ?? $0 }
                return QueuedItem(
                    id: row[0].int, created: row[1].number, write: write, state: state, note: row[4].string)
            }
        }
    }

    /// Records where a queued write is; `done` is written in one statement, so a replay that stops just after it
    /// never applies the write again (and one that stops just before finds it applied and says so).
    package func setQueueState(_ id: Int64, _ state: QueueState, note: String? = nil) throws(SQLiteError) {
        try withDatabase { database throws(SQLiteError) in
            try database.execute(
                "UPDATE queued_writes SET state = ?, note = ? WHERE id = ?",
                [.text(state.rawValue), note.map(SQLiteValue.text) ?? .null, .integer(id)])
        }
    }

    /// Forgets a queued write; false when there was none with that number.
    @discardableResult
    package func dropQueued(_ id: Int64) throws(SQLiteError) -> Bool {
        try withDatabase { database throws(SQLiteError) -> Bool in
            return try database.execute("DELETE FROM queued_writes WHERE id = ?", [.integer(id)]) > 0
        }
    }

    /// Forgets the writes done; how many.
    @discardableResult
    package func pruneDoneQueued() throws(SQLiteError) -> Int {
        try withDatabase { database throws(SQLiteError) -> Int in
            return try database.execute("DELETE FROM queued_writes WHERE state = 'done'")
        }
    }
}
