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
        /// The name of the remote it was started on: another remote with the same endpoint may hold other keys
        /// (nil in records of older builds, matched by endpoint alone).
        package var remote: String? = nil

        /// `bucket/key`.
        package var label: String { "\(bucket)/\(objectKey)" }
    }

    /// The journal key of an upload of `path` to `bucket`/`key` at `endpoint`.
    package static func objectUploadKey(endpoint: String, bucket: String, key: String, path: String) -> String {
        [endpoint, bucket, key, path].joined(separator: "\n")
    }

    /// The unfinished upload with this key.
    /// The unfinished upload with this key (kept relative to its base folder, or absolute by an older run).
    package func objectUpload(key: String) throws(SQLiteError) -> ObjectUpload? {
        let forms = keptKeyForms(key)
        return try withDatabase { database throws(SQLiteError) -> ObjectUpload? in
            for form in forms {
                if let upload = try database.query("SELECT record FROM object_uploads WHERE key = ?", [.text(form)])
                    .first?.first?.string.flatMap(decodeObjectUpload)
                {
                    return upload
                }
            }
            return nil
        }
    }

    /// Every unfinished object-store upload, oldest first; one kept under a base folder this run does not
    /// declare is left out (and kept).
    package func objectUploads() throws(SQLiteError) -> [ObjectUpload] {
        try withDatabase { database throws(SQLiteError) -> [ObjectUpload] in
            return try database.query("SELECT record FROM object_uploads ORDER BY created").compactMap {
                $0.first?.string.flatMap(decodeObjectUpload)
            }
        }
    }

    /// Records or replaces an upload, its paths kept relative to their base folder.
    package func save(_ upload: ObjectUpload) throws(SQLiteError) {
        var kept = upload
        kept.key = keptKeyForms(upload.key)[0]
        kept.localPath = anchors.kept(upload.localPath)
        kept.fingerprint.path = anchors.kept(upload.fingerprint.path)
        let record = String(decoding: (try? JSONEncoder().encode(kept)) ?? Data(), as: UTF8.self)
        try replaceKeyedRow(in: "object_uploads", key: upload.key, values: [.text(record)])
    }

    /// Forgets an upload, in whichever form it was kept.
    package func removeObjectUpload(key: String) throws(SQLiteError) {
        try withDatabase { database throws(SQLiteError) in
            for form in keptKeyForms(key) {
                try database.execute("DELETE FROM object_uploads WHERE key = ?", [.text(form)])
            }
        }
    }

    /// A kept record with its paths as this run finds them; nil when unreadable or under an undeclared folder.
    private func decodeObjectUpload(_ text: String) -> ObjectUpload? {
        guard var upload = try? JSONDecoder().decode(ObjectUpload.self, from: Data(text.utf8)),
            let key = keyPath(upload.key), let path = anchors.path(upload.localPath)
        else { return nil }
        upload.key = key
        upload.localPath = path
        upload.fingerprint.path = path
        return upload
    }
}
