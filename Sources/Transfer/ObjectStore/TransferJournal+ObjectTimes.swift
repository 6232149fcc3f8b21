import Foundation
import Journal

extension TransferJournal {
    /// An object's own modification time as last read from (or written to) its metadata, for the version of the
    /// object that had this ETag and size. A listing names both, so a sync that finds them unchanged knows the
    /// time without asking the store (one HEAD per object otherwise, the cost of every no-op sync).
    package struct ObjectTime: Sendable, Equatable {
        /// The ETag of the version.
        package var etag: String
        /// Its size.
        package var size: Int64
        /// The file's time stored with it.
        package var mtime: Double

        /// Creates a record.
        package init(etag: String, size: Int64, mtime: Double) {
            self.etag = etag
            self.size = size
            self.mtime = mtime
        }
    }

    /// The remembered times of the objects directly below `prefix` (no deeper; with `deep`, at any depth), by key.
    package func objectTimes(endpoint: String, bucket: String, prefix: String, deep: Bool = false) throws(SQLiteError)
        -> [String: ObjectTime]
    {
        try withDatabase { database throws(SQLiteError) -> [String: ObjectTime] in
            // Keys sort as bytes: everything starting with the prefix lies below prefix + U+10FFFF.
            let rows = try database.query(
                """
                SELECT object_key, etag, size, mtime FROM object_times
                WHERE endpoint = ? AND bucket = ? AND object_key >= ? AND object_key < ?
                AND (? OR instr(substr(object_key, ?), '/') = 0)
                """,
                [
                    .text(endpoint), .text(bucket), .text(prefix), .text(prefix + "\u{10FFFF}"),
                    .integer(deep ? 1 : 0), .integer(Int64(prefix.utf8.count + 1)),
                ])
            var result: [String: ObjectTime] = [:]
            for row in rows {
                guard let key = row[0].string, let etag = row[1].string else { continue }
                result[key] = ObjectTime(etag: etag, size: row[2].int, mtime: row[3].number)
            }
            return result
        }
    }

    /// Whether any time is remembered for the objects of `bucket` at `endpoint` (one indexed lookup), so a listing
    /// with none to apply asks nothing per entry.
    package func hasObjectTimes(endpoint: String, bucket: String) throws(SQLiteError) -> Bool {
        try withDatabase { database throws(SQLiteError) -> Bool in
            !(try database.query(
                "SELECT 1 FROM object_times WHERE endpoint = ? AND bucket = ? LIMIT 1",
                [.text(endpoint), .text(bucket)])).isEmpty
        }
    }

    /// The remembered time of one object, if any.
    package func objectTime(endpoint: String, bucket: String, key: String) throws(SQLiteError) -> ObjectTime? {
        try withDatabase { database throws(SQLiteError) -> ObjectTime? in
            let rows = try database.query(
                "SELECT etag, size, mtime FROM object_times WHERE endpoint = ? AND bucket = ? AND object_key = ?",
                [.text(endpoint), .text(bucket), .text(key)])
            guard let row = rows.first, let etag = row[0].string else { return nil }
            return ObjectTime(etag: etag, size: row[1].int, mtime: row[2].number)
        }
    }

    /// Remembers an object's time for its current ETag and size.
    package func rememberObjectTime(endpoint: String, bucket: String, key: String, _ time: ObjectTime)
        throws(SQLiteError)
    {
        try withDatabase { database throws(SQLiteError) in
            try database.execute(
                "INSERT OR REPLACE INTO object_times VALUES (?, ?, ?, ?, ?, ?)",
                [.text(endpoint), .text(bucket), .text(key), .text(time.etag), .integer(time.size), .real(time.mtime)])
        }
    }

    /// Forgets the times of an object, or with a prefix ending in `/`, of everything below it.
    package func forgetObjectTimes(endpoint: String, bucket: String, key: String) throws(SQLiteError) {
        try withDatabase { database throws(SQLiteError) in
            if key.hasSuffix("/") || key.isEmpty {
                try database.execute(
                    "DELETE FROM object_times WHERE endpoint = ? AND bucket = ? AND object_key >= ? AND object_key < ?",
                    [.text(endpoint), .text(bucket), .text(key), .text(key + "\u{10FFFF}")])
            } else {
                try database.execute(
                    "DELETE FROM object_times WHERE endpoint = ? AND bucket = ? AND object_key = ?",
                    [.text(endpoint), .text(bucket), .text(key)])
            }
        }
    }
}
