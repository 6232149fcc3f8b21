/// A database's format as the steps that build it: step N takes a file from version N to N + 1, and the file's
/// version is SQLite's `user_version`. A file of version 0 is one written before versions were kept (or a new
/// one), so step 0 must accept the tables it may already hold (`IF NOT EXISTS`).
package struct SQLiteSchema: Sendable {
    /// One step: SQL (and whatever else the owner needs, such as hashing files) run inside the migration's transaction.
    package typealias Migration = @Sendable (SQLiteDatabase) throws -> Void

    /// The steps, oldest first.
    package let migrations: [Migration]

    /// The version this build writes: the number of steps.
    package var version: Int { migrations.count }

    /// A format built by `migrations`, oldest first.
    package init(_ migrations: [Migration]) { self.migrations = migrations }
}

extension SQLiteDatabase {
    /// The file's format version (`PRAGMA user_version`).
    package func userVersion() throws(SQLiteError) -> Int {
        Int(try query("PRAGMA user_version").first?.first?.int ?? 0)
    }

    /// Brings the file to `schema`'s version, running the missing steps in one write transaction (so another
    /// process never sees a half-migrated file, and two processes opening at once migrate once). A file newer
    /// than `schema` is refused and left untouched; its version is returned otherwise (before migrating).
    @discardableResult
    package func migrate(to schema: SQLiteSchema) throws(SQLiteError) -> Int {
        let before = try userVersion()
        if before > schema.version { throw .newer(path: path, found: before, supported: schema.version) }
        guard before < schema.version else { return before }
        try writeTransaction { () throws(SQLiteError) in
            // Read again under the write lock: another process may have migrated meanwhile.
            let found = try userVersion()
            if found > schema.version { throw .newer(path: path, found: found, supported: schema.version) }
            for step in schema.migrations[found...] {
                do {
                    try step(self)
                } catch let error as SQLiteError {
                    throw error
                } catch {
                    throw SQLiteError(path: path, code: 0, message: "upgrading its format: \(error)", sql: nil)
                }
            }
            try execute("PRAGMA user_version = \(schema.version)")
        }
        return before
    }

    /// SQLite's complaint when the file fails its quick integrity check (every page read), nil when it passes.
    package func integrityProblem() throws(SQLiteError) -> String? {
        let lines = try query("PRAGMA quick_check").compactMap(\.first?.string)
        return lines == ["ok"] ? nil : lines.prefix(3).joined(separator: "; ")
    }
}
