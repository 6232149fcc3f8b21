import CSQLite
import Foundation

/// Every SQLite call Transfer makes, in one place.
enum SQLiteCalls {
    typealias Connection = OpaquePointer
    typealias Statement = OpaquePointer

    static let ok = SQLITE_OK
    static let row = SQLITE_ROW
    static let done = SQLITE_DONE
    static let busy = SQLITE_BUSY

    static func version() -> String { String(cString: sqlite3_libversion()) }

    static func open(_ path: String, readOnly: Bool) -> (Int32, Connection?) {
        var db: OpaquePointer?
        let flags =
            (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
            | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        let status = sqlite3_open_v2(path, &db, flags, nil)
        return (status, db)
    }
    static func close(_ db: Connection) { sqlite3_close_v2(db) }
    static func errorMessage(_ db: Connection) -> String { String(cString: sqlite3_errmsg(db)) }
    static func errorString(_ code: Int32) -> String { String(cString: sqlite3_errstr(code)) }
    /// The errno of the system call behind the last failure (a full disk, a read-only folder), 0 if none.
    static func systemErrno(_ db: Connection) -> Int32 { sqlite3_system_errno(db) }
    static func busyTimeout(_ db: Connection, milliseconds: Int32) { sqlite3_busy_timeout(db, milliseconds) }

    /// Waits for another connection's lock by polling every 50 µs for the first 10 ms, then every millisecond,
    /// up to about `milliseconds`. SQLite's own busy timeout sleeps 1, 2, 5, 10… ms, which turns a
    /// 0.3 ms wait for a short write transaction into many milliseconds.
    static func pollingBusyHandler(_ db: Connection, milliseconds: Int32) {
        let limit = Int(milliseconds) + 200
        sqlite3_busy_handler(
            db,
            { context, count in
                let limit = Int(bitPattern: context)
                guard Int(count) < limit else { return 0 }
                usleep(count < 200 ? 50 : 1000)
                return 1
            }, UnsafeMutableRawPointer(bitPattern: limit))
    }
    static func changes(_ db: Connection) -> Int { Int(sqlite3_changes64(db)) }
    static func totalChanges(_ db: Connection) -> Int { Int(sqlite3_total_changes64(db)) }
    static func lastInsertRowID(_ db: Connection) -> Int64 { sqlite3_last_insert_rowid(db) }

    static func prepare(_ db: Connection, _ sql: String) -> (Int32, Statement?) {
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v2(db, sql, -1, &statement, nil)
        return (status, statement)
    }
    static func finalize(_ statement: Statement) { sqlite3_finalize(statement) }
    static func step(_ statement: Statement) -> Int32 { sqlite3_step(statement) }
    static func reset(_ statement: Statement) { sqlite3_reset(statement) }
    static func bindNull(_ statement: Statement, _ index: Int32) -> Int32 { sqlite3_bind_null(statement, index) }
    static func bind(_ statement: Statement, _ index: Int32, _ value: Int64) -> Int32 {
        sqlite3_bind_int64(statement, index, value)
    }
    static func bind(_ statement: Statement, _ index: Int32, _ value: Double) -> Int32 {
        sqlite3_bind_double(statement, index, value)
    }
    static func bind(_ statement: Statement, _ index: Int32, _ value: String) -> Int32 {
        officer_sqlite3_bind_text_transient(statement, index, value, -1)
    }
    static func columnCount(_ statement: Statement) -> Int32 { sqlite3_column_count(statement) }
    static func columnType(_ statement: Statement, _ index: Int32) -> Int32 { sqlite3_column_type(statement, index) }
    static func columnInt(_ statement: Statement, _ index: Int32) -> Int64 { sqlite3_column_int64(statement, index) }
    static func columnDouble(_ statement: Statement, _ index: Int32) -> Double {
        sqlite3_column_double(statement, index)
    }
    static func columnText(_ statement: Statement, _ index: Int32) -> String? {
        sqlite3_column_text(statement, index).map { String(cString: $0) }
    }
    static let integerType = SQLITE_INTEGER
    static let floatType = SQLITE_FLOAT
    static let textType = SQLITE_TEXT
    static let nullType = SQLITE_NULL
}
