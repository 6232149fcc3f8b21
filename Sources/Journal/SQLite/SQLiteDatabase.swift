/// A value SQLite stores or returns.
package enum SQLiteValue: Sendable, Equatable {
    /// NULL.
    case null
    /// INTEGER.
    case integer(Int64)
    /// REAL.
    case real(Double)
    /// TEXT.
    case text(String)
}

/// An owned SQLite connection in WAL mode with a busy timeout, so several processes can share one file.
///
/// Not thread-safe: use one connection per task or guard it.
package final class SQLiteDatabase {
    private let connection: SQLiteCalls.Connection
    /// The database file.
    package let path: String

    /// Opens (creating if needed) the database at `path`, switches it to WAL and sets a busy timeout.
    package init(path: String, busyTimeoutMilliseconds: Int32 = 10_000) throws(SQLiteError) {
        let (status, connection) = SQLiteCalls.open(path, readOnly: false)
        guard status == SQLiteCalls.ok, let connection else {
            let message = connection.map(SQLiteCalls.errorMessage) ?? SQLiteCalls.errorString(status)
            let system = connection.map(SQLiteCalls.systemErrno) ?? 0
            if let connection { SQLiteCalls.close(connection) }
            throw SQLiteError(path: path, code: status, message: message, sql: nil, systemError: system)
        }
        self.connection = connection
        self.path = path
        SQLiteCalls.pollingBusyHandler(connection, milliseconds: busyTimeoutMilliseconds)
        _ = try query("PRAGMA journal_mode=WAL")
        try execute("PRAGMA synchronous=NORMAL")
    }

    deinit { SQLiteCalls.close(connection) }

    /// The SQLite library version, e.g. `3.40.1`.
    package static var libraryVersion: String { SQLiteCalls.version() }

    /// The journal mode in force (`wal` once opened).
    package func journalMode() throws(SQLiteError) -> String {
        if case .text(let mode) = try query("PRAGMA journal_mode").first?.first { return mode }
        return ""
    }

    /// Rows this connection has changed since it opened (a counter: a write moves it).
    package var totalChanges: Int { SQLiteCalls.totalChanges(connection) }

    /// Runs a statement that returns no rows; returns the number of rows changed.
    @discardableResult
    package func execute(_ sql: String, _ arguments: [SQLiteValue] = []) throws(SQLiteError) -> Int {
        _ = try query(sql, arguments)
        return SQLiteCalls.changes(connection)
    }

    /// Runs a statement and returns all its rows.
    package func query(_ sql: String, _ arguments: [SQLiteValue] = []) throws(SQLiteError) -> [[SQLiteValue]] {
        let (status, prepared) = SQLiteCalls.prepare(connection, sql)
        guard status == SQLiteCalls.ok, let statement = prepared else { throw error(status, sql) }
        defer { SQLiteCalls.finalize(statement) }
        for (offset, argument) in arguments.enumerated() {
            let index = Int32(offset + 1)
            let bound: Int32 =
                switch argument {
                case .null: SQLiteCalls.bindNull(statement, index)
                case .integer(let value): SQLiteCalls.bind(statement, index, value)
                case .real(let value): SQLiteCalls.bind(statement, index, value)
                case .text(let value): SQLiteCalls.bind(statement, index, value)
                }
            guard bound == SQLiteCalls.ok else { throw error(bound, sql) }
        }
        var rows: [[SQLiteValue]] = []
        while true {
            let step = SQLiteCalls.step(statement)
            if step == SQLiteCalls.done { return rows }
            guard step == SQLiteCalls.row else { throw error(step, sql) }
            rows.append(
                (0..<SQLiteCalls.columnCount(statement)).map { column in
                    switch SQLiteCalls.columnType(statement, column) {
                    case SQLiteCalls.integerType: .integer(SQLiteCalls.columnInt(statement, column))
                    case SQLiteCalls.floatType: .real(SQLiteCalls.columnDouble(statement, column))
                    case SQLiteCalls.textType: .text(SQLiteCalls.columnText(statement, column) ?? "")
                    default: .null
                    }
                })
        }
    }

    /// Runs SQL-only work inside `BEGIN IMMEDIATE … COMMIT`, rolling back if it throws.
    package func writeTransaction(_ body: () throws(SQLiteError) -> Void) throws(SQLiteError) {
        try execute("BEGIN IMMEDIATE")
        do throws(SQLiteError) {
            try body()
            try execute("COMMIT")
        } catch {
            _ = try? execute("ROLLBACK")
            throw error
        }
    }

    /// Runs SQL-only work inside `BEGIN IMMEDIATE … COMMIT` and returns its value, rolling back if it throws.
    package func writeTransactionReturning<T>(_ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        var result: T?
        try writeTransaction { () throws(SQLiteError) in result = try body() }
        return result!
    }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`, rolling back if it throws.
    package func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            _ = try? execute("ROLLBACK")
            throw error
        }
    }

    private func error(_ code: Int32, _ sql: String) -> SQLiteError {
        SQLiteError(
            path: path, code: code, message: SQLiteCalls.errorMessage(connection), sql: sql,
            systemError: SQLiteCalls.systemErrno(connection))
    }
}
