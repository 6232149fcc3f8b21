extension TransferJournal {
    /// A value that differs after any change to the journal, by this connection (its total of changed rows) or by
    /// another connection or process (SQLite's data version): two cheap reads, so an observer can ask it often and
    /// read the records themselves only when it moved.
    package func changeStamp() throws(SQLiteError) -> [Int64] {
        try withDatabase { database throws(SQLiteError) -> [Int64] in
            let own = try database.query("SELECT total_changes()").first?.first?.int ?? 0
            let others = try database.query("PRAGMA data_version").first?.first?.int ?? 0
            return [own, others]
        }
    }
}
