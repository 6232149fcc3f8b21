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

        /// An upload's record.
        package init(
            key: String, localPath: String, label: String, target: UploadTarget, fingerprint: FileFingerprint,
            parts: [UploadPart]
        ) {
            self.key = key
            self.localPath = localPath
            self.label = label
            self.target = target
            self.fingerprint = fingerprint
            self.parts = parts
        }
    }

    /// The journal key of an upload of `path` to `target`.
    package static func uploadKey(path: String, target: UploadTarget) -> String {
        target.tusEndpoint + "\n" + target.label + "\n" + path
    }

    /// The unfinished upload with this key.
    /// The unfinished upload with this key (kept relative to its base folder, or absolute by an older run).
    package func upload(key: String) throws(SQLiteError) -> Upload? {
        let forms = keptKeyForms(key)
        return try withDatabase { database throws(SQLiteError) -> Upload? in
            for form in forms {
                if let upload = try database.query(
                    "SELECT key, local_path, label, target, fingerprint, parts FROM uploads WHERE key = ?",
                    [.text(form)]
                ).first.flatMap(decodeUpload) {
                    return upload
                }
            }
            return nil
        }
    }

    /// Every unfinished upload; one kept under a base folder this run does not declare is left out (and kept).
    package func uploads() throws(SQLiteError) -> [Upload] {
        try withDatabase { database throws(SQLiteError) -> [Upload] in
            try database.query(
                "SELECT key, local_path, label, target, fingerprint, parts FROM uploads ORDER BY created"
            )
            .compactMap(decodeUpload)
        }
    }

    /// Records or replaces an upload, its paths kept relative to their base folder.
    package func save(_ upload: Upload) throws(SQLiteError) {
        let encoder = JSONEncoder()
        var keptFingerprint = upload.fingerprint
        keptFingerprint.path = anchors.kept(keptFingerprint.path)
        let target = (try? encoder.encode(upload.target)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        let fingerprint = (try? encoder.encode(keptFingerprint)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        let parts = (try? encoder.encode(upload.parts)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        try replaceKeyedRow(
            in: "uploads", key: upload.key,
            values: [
                .text(anchors.kept(upload.localPath)), .text(upload.label), .text(target), .text(fingerprint),
                .text(parts),
            ])
    }

    /// Forgets an upload, in whichever form it was kept.
    package func removeUpload(key: String) throws(SQLiteError) {
        try withDatabase { database throws(SQLiteError) in
            for form in keptKeyForms(key) {
                try database.execute("DELETE FROM uploads WHERE key = ?", [.text(form)])
            }
        }
    }

    /// An upload's row with its paths as this run finds them; nil when unreadable or under an undeclared folder.
    private func decodeUpload(_ row: [SQLiteValue]) -> Upload? {
        let decoder = JSONDecoder()
        guard let key = row[0].string.flatMap(keyPath), let path = row[1].string.flatMap(anchors.path),
            let label = row[2].string,
            let target = row[3].string.flatMap({ try? decoder.decode(UploadTarget.self, from: Data($0.utf8)) }),
            var fingerprint = row[4].string.flatMap({ try? decoder.decode(FileFingerprint.self, from: Data($0.utf8)) }),
            let parts = row[5].string.flatMap({ try? decoder.decode([UploadPart].self, from: Data($0.utf8)) })
        else { return nil }
        fingerprint.path = path
        return Upload(key: key, localPath: path, label: label, target: target, fingerprint: fingerprint, parts: parts)
    }
}
