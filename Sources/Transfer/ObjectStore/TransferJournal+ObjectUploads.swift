import Foundation
import Journal

extension TransferJournal {
    /// An unfinished multipart upload to an object store, as journaled: enough to ask the store which parts it
    /// holds (ListParts) and send only the others, or to abort it.
    package struct ObjectUpload: Sendable, Equatable, Codable {
        /// Identifies it: endpoint, bucket, key and local file.
        package var key: String
        /// The store's endpoint URL.
        package var endpoint: String
        /// The bucket.
        package var bucket: String
        /// The object's key.
        package var objectKey: String
        /// The local file.
        package var localPath: String
        /// The store's upload id.
        package var uploadID: String
        /// Bytes per part (the last may be shorter).
        package var partSize: Int64
        /// The local file's version when the upload started.
        package var fingerprint: FileFingerprint

        /// `bucket/key`.
        package var label: String { "\(bucket)/\(objectKey)" }
    }

    /// The journal key of an upload of `path` to `bucket`/`key` at `endpoint`.
    package static func objectUploadKey(endpoint: String, bucket: String, key: String, path: String) -> String {
        [endpoint, bucket, key, path].joined(separator: "\n")
    }

    /// The unfinished upload with this key.
    package func objectUpload(key: String) throws(SQLiteError) -> ObjectUpload? {
        try withDatabase { database throws(SQLiteError) -> ObjectUpload? in
            return try database.query("SELECT record FROM object_uploads WHERE key = ?", [.text(key)]).first?.first?
                .string
                .flatMap { try? JSONDecoder().decode(ObjectUpload.self, from: Data($0.utf8)) }
        }
    }

    /// Every unfinished object-store upload, oldest first.
    package func objectUploads() throws(SQLiteError) -> [ObjectUpload] {
        try withDatabase { database throws(SQLiteError) -> [ObjectUpload] in
            return try database.query("SELECT record FROM object_uploads ORDER BY created").compactMap {
                $0.first?.string.flatMap { try? JSONDecoder().decode(ObjectUpload.self, from: Data($0.utf8)) }
            }
        }
    }

    /// Records or replaces an upload.
    package func save(_ upload: ObjectUpload) throws(SQLiteError) {
        let record = String(decoding: (try? JSONEncoder().encode(upload)) ?? Data(), as: UTF8.self)
        try withDatabase { database throws(SQLiteError) in
            try database.execute(
                "INSERT OR REPLACE INTO object_uploads VALUES (?, ?, COALESCE((SELECT created FROM object_uploads WHERE key = ?), ?))",
                [.text(upload.key), .text(record), .text(upload.key), .real(Date().timeIntervalSince1970)])
        }
    }

    /// Forgets an upload.
    package func removeObjectUpload(key: String) throws(SQLiteError) {
        try withDatabase { database throws(SQLiteError) in
            try database.execute("DELETE FROM object_uploads WHERE key = ?", [.text(key)])
        }
    }
}
