import Foundation
import HTTP
import Journal

extension TransferJournal {
    /// One tus upload (or one part of a concatenated upload) as journaled.
    package struct UploadPart: Sendable, Codable, Equatable {
        /// Position among the parts.
        package var index: Int
        /// First byte of the local file it carries.
        package var start: Int64
        /// Bytes it carries.
        package var length: Int64
        /// The tus upload URL, once created.
        package var url: String?
        /// Bytes the server confirmed (informational: a resume asks the server with HEAD).
        package var offset: Int64
    }

    /// An unfinished upload.
    package struct Upload: Sendable, Equatable {
        /// Identifies the upload: endpoint, destination and local file.
        package var key: String
        /// The local file.
        package var localPath: String
        /// Where it goes, in words.
        package var label: String
        /// Where it goes (no token).
        package var target: UploadTarget
        /// The local file's version when the upload started.
        package var fingerprint: FileFingerprint
        /// Its parts (one for a plain upload).
        package var parts: [UploadPart]
    }

    /// The journal key of an upload of `path` to `target`.
    package static func uploadKey(path: String, target: UploadTarget) -> String {
        target.tusEndpoint + "\n" + target.label + "\n" + path
    }

    /// The unfinished upload with this key.
    package func upload(key: String) throws(SQLiteError) -> Upload? {
        try withDatabase { database throws(SQLiteError) -> Upload? in
            try database.query(
                "SELECT key, local_path, label, target, fingerprint, parts FROM uploads WHERE key = ?", [.text(key)]
            ).first.flatMap(Self.decodeUpload)
        }
    }

    /// Every unfinished upload.
    package func uploads() throws(SQLiteError) -> [Upload] {
        try withDatabase { database throws(SQLiteError) -> [Upload] in
            try database.query(
                "SELECT key, local_path, label, target, fingerprint, parts FROM uploads ORDER BY created"
            )
            .compactMap(Self.decodeUpload)
        }
    }

    /// Records or replaces an upload.
    package func save(_ upload: Upload) throws(SQLiteError) {
        let encoder = JSONEncoder()
        let target = (try? encoder.encode(upload.target)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        let fingerprint = (try? encoder.encode(upload.fingerprint)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        let parts = (try? encoder.encode(upload.parts)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        try withDatabase { database throws(SQLiteError) in
            try database.execute(
                "INSERT OR REPLACE INTO uploads VALUES (?, ?, ?, ?, ?, ?, COALESCE((SELECT created FROM uploads WHERE key = ?), ?))",
                [
                    .text(upload.key), .text(upload.localPath), .text(upload.label), .text(target), .text(fingerprint),
                    .text(parts), .text(upload.key), .real(Date().timeIntervalSince1970),
                ])
        }
    }

    /// Forgets an upload.
    package func removeUpload(key: String) throws(SQLiteError) {
        try withDatabase { database throws(SQLiteError) in
            try database.execute("DELETE FROM uploads WHERE key = ?", [.text(key)])
        }
    }

    private static func decodeUpload(_ row: [SQLiteValue]) -> Upload? {
        let decoder = JSONDecoder()
        guard let key = row[0].string, let path = row[1].string, let label = row[2].string,
            let target = row[3].string.flatMap({ try? decoder.decode(UploadTarget.self, from: Data($0.utf8)) }),
            let fingerprint = row[4].string.flatMap({ try? decoder.decode(FileFingerprint.self, from: Data($0.utf8)) }),
            let parts = row[5].string.flatMap({ try? decoder.decode([UploadPart].self, from: Data($0.utf8)) })
        else { return nil }
        return Upload(key: key, localPath: path, label: label, target: target, fingerprint: fingerprint, parts: parts)
    }
}
