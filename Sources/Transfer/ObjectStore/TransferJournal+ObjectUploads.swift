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

    /// The unfinished upload with this key (kept relative to its base folder, or absolute by an older run).
    package func objectUpload(key: String) throws(SQLiteError) -> ObjectUpload? {
        try state(ObjectUpload.self, key: key)
    }

    /// Every unfinished object-store upload, oldest first; one kept under a base folder this run does not
    /// declare is left out (and kept).
    package func objectUploads() throws(SQLiteError) -> [ObjectUpload] { try states(ObjectUpload.self) }

    /// Records or replaces an upload, its paths kept relative to their base folder.
    package func save(_ upload: ObjectUpload) throws(SQLiteError) { try saveState(upload, key: upload.key) }

    /// Forgets an upload, in whichever form it was kept.
    package func removeObjectUpload(key: String) throws(SQLiteError) { try removeState(ObjectUpload.self, key: key) }
}

extension TransferJournal.ObjectUpload: LocalFileUploadState {
    /// Object-store uploads' rows.
    package static var stateKind: TransferJournal.StateKind { .objectUpload }
    /// The record as 0.4 kept it already (JSON), now versioned.
    package static var stateVersion: Int { 1 }
}
