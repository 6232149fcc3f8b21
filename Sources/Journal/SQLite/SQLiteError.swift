

/// An SQLite failure: the database, the statement, and SQLite's own message.
public struct SQLiteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The database file.
    public var path: String
    /// SQLite's (extended) result code.
    public var code: Int32
    /// SQLite's message.
    public var message: String
    /// The statement that failed, if any.
    public var sql: String?

    /// A one-line message.
    public var description: String {
        "\(path): SQLite error \(code): \(message)" + (sql.map { " (in: \($0.prefix(80)))" } ?? "")
    }
}
