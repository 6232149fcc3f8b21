import Foundation

extension TransferJournal {
    /// What `server` was found to offer (proposal name → offered), learnt less than `maxAge` seconds ago.
    package func serverOffers(for server: String, maxAge: Double, now: Date = Date()) throws(SQLiteError) -> [String:
        Bool]
    {
        try withDatabase { database throws(SQLiteError) -> [String: Bool] in
            let rows = try database.query(
                "SELECT proposal, offered FROM server_offers WHERE server = ? AND learnt >= ?",
                [.text(server), .real(now.timeIntervalSince1970 - maxAge)])
            var result: [String: Bool] = [:]
            for row in rows {
                if let proposal = row[0].string { result[proposal] = row[1].int != 0 }
            }
            return result
        }
    }

    /// Remembers whether `server` offers `proposal`, as learnt now.
    package func rememberServerOffer(_ proposal: String, offered: Bool, for server: String, now: Date = Date())
        throws(SQLiteError)
    {
        try withDatabase { database throws(SQLiteError) in
            try database.execute(
                "INSERT OR REPLACE INTO server_offers VALUES (?, ?, ?, ?)",
                [.text(server), .text(proposal), .integer(offered ? 1 : 0), .real(now.timeIntervalSince1970)])
        }
    }
}
