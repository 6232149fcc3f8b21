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

    /// An unfinished tus upload: the state its machines (`TusPatchMachine`, per part) continue from, kept as a
    /// versioned JSON value (``JournaledState``).
    package struct Upload: Sendable, Equatable, Codable {
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
        /// How its requests are worded; nil (a record of 0.5 or before) is tus.
        package var dialect: UploadDialect?

        /// An upload's record.
        package init(
            key: String, localPath: String, label: String, target: UploadTarget, fingerprint: FileFingerprint,
            parts: [UploadPart], dialect: UploadDialect? = nil
        ) {
            self.dialect = dialect
            self.key = key
            self.localPath = localPath
            self.label = label
            self.target = target
            self.fingerprint = fingerprint
            self.parts = parts
        }
    }

    /// The journal key of an upload of `path` to `target` in `dialect`: its endpoint (tus's, or the IETF form's, whose
    /// interop version does not change it), where it lands, and the local file.
    package static func uploadKey(path: String, target: UploadTarget, dialect: UploadDialect = .tus) -> String {
        target.endpoint(in: dialect) + "\n" + target.label + "\n" + path
    }

    /// The unfinished upload with this key (kept relative to its base folder, or absolute by an older run).
    package func upload(key: String) throws(SQLiteError) -> Upload? { try state(Upload.self, key: key) }

    /// Every unfinished upload; one kept under a base folder this run does not declare is left out (and kept).
    package func uploads() throws(SQLiteError) -> [Upload] { try states(Upload.self) }

    /// Records or replaces an upload, its paths kept relative to their base folder.
    package func save(_ upload: Upload) throws(SQLiteError) { try saveState(upload, key: upload.key) }

    /// Forgets an upload, in whichever form it was kept.
    package func removeUpload(key: String) throws(SQLiteError) { try removeState(Upload.self, key: key) }
}

extension TransferJournal.Upload: LocalFileUploadState {
    /// tus uploads' rows.
    package static var stateKind: TransferJournal.StateKind { .tusUpload }
    /// The first JSON form (0.4's table is migrated into it).
    package static var stateVersion: Int { 1 }
}
