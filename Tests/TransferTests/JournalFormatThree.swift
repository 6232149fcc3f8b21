import Foundation
import Journal

/// A journal of this build written back in the tables 0.4 kept (format 3), as `Fixtures/state/journal-v3.sqlite`
/// holds them (made by 0.4's CLI with a download and an upload interrupted): for the tests that what 0.4 left
/// is continued. `StateMigrationTests` checks it gives that file back from its migrated form.
enum JournalFormatThree {
    /// Rewrites the journal at `path` (no connection open on it) in format 3.
    static func downgrade(_ path: String) throws {
        let database = try SQLiteDatabase(path: path)
        try database.writeTransaction { () throws(SQLiteError) in
            for statement in statements { try database.execute(statement) }
        }
    }

    /// The file's `user_version`.
    static func userVersion(_ path: String) throws -> Int {
        Int(try SQLiteDatabase(path: path).query("PRAGMA user_version").first?.first?.int ?? -1)
    }

    private static let statements = [
        """
        CREATE TABLE downloads (
            destination TEXT PRIMARY KEY, url TEXT NOT NULL, temp_path TEXT NOT NULL,
            etag TEXT, last_modified TEXT, total INTEGER, boot_id TEXT NOT NULL, created REAL NOT NULL, source TEXT)
        """,
        """
        CREATE TABLE download_segments (
            destination TEXT NOT NULL, idx INTEGER NOT NULL, start INTEGER NOT NULL, end INTEGER NOT NULL,
            done INTEGER NOT NULL DEFAULT 0, synced INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (destination, idx))
        """,
        """
        CREATE TABLE uploads (
            key TEXT PRIMARY KEY, local_path TEXT NOT NULL, label TEXT NOT NULL, target TEXT NOT NULL,
            fingerprint TEXT NOT NULL, parts TEXT NOT NULL, created REAL NOT NULL)
        """,
        "CREATE TABLE object_uploads (key TEXT PRIMARY KEY, record TEXT NOT NULL, created REAL NOT NULL)",
        """
        INSERT INTO downloads
        SELECT key, json_extract(state, '$.url'), json_extract(state, '$.tempPath'), json_extract(state, '$.etag'),
            json_extract(state, '$.lastModified'), json_extract(state, '$.total'), json_extract(state, '$.bootID'),
            created, json_extract(state, '$.source')
        FROM transfers WHERE kind = 'download'
        """,
        """
        INSERT INTO download_segments
        SELECT t.key, json_extract(s.value, '$.index'), json_extract(s.value, '$.start'),
            json_extract(s.value, '$.end'), json_extract(s.value, '$.done'), json_extract(s.value, '$.synced')
        FROM transfers t, json_each(t.state, '$.segments') s WHERE t.kind = 'download'
        """,
        """
        INSERT INTO uploads
        SELECT key, json_extract(state, '$.localPath'), json_extract(state, '$.label'),
            json_extract(state, '$.target'), json_extract(state, '$.fingerprint'), json_extract(state, '$.parts'),
            created
        FROM transfers WHERE kind = 'tus-upload'
        """,
        "INSERT INTO object_uploads SELECT key, state, created FROM transfers WHERE kind = 'object-upload'",
        "DROP TABLE transfers",
        "PRAGMA user_version = 3",
    ]
}
