import FileModel
import Foundation
import HTTP

/// Asks the destination of an upload what it holds under the upload's final name. The uploaders know no
/// server's API; the layer that does (Officer: its listing and SHA-256 endpoint) answers through this, so an
/// upload whose last request failed or was in doubt is reported done only when the other side holds the file.
package protocol UploadConfirming: Sendable {
    /// What the destination holds under `target`'s name now; `withChecksum` asks for its SHA-256 too, where the
    /// destination computes one.
    func stored(at target: UploadTarget, withChecksum: Bool) async throws -> StoredFile
    /// The name, size and modification time of the file an upload's answer describes (a multipart upload's 201
    /// names the stored entry), nil when the answer says nothing of it.
    func storedFile(inAnswer body: Data) -> AnsweredFile?
    /// Renames the file an upload stored as `stored` in `target`'s folder to `target`'s name (replacing what is
    /// there only with `replacing`): how a name a multipart form cannot carry exactly reaches the server.
    func rename(storedAs stored: String, to target: UploadTarget, replacing: Bool) async throws
}

/// The file an upload's answer names.
package struct AnsweredFile: Sendable, Equatable {
    /// Its name as the server stored it.
    package var name: String?
    /// Its size.
    package var size: Int64
    /// The time the server gave it.
    package var mtime: Double

    /// Creates one.
    package init(name: String?, size: Int64, mtime: Double) {
        self.name = name
        self.size = size
        self.mtime = mtime
    }
}

/// What a destination holds under an upload's name.
package enum StoredFile: Sendable, Equatable {
    /// A file of this size, and its SHA-256 (hex) when the destination computes one.
    case file(size: Int64, sha256: String?)
    /// Nothing, or a folder.
    case absent
    /// The destination cannot tell (not a destination it knows): the upload protocol's own answer stands.
    case unknown
}

extension UploadConfirming {
    /// Confirms that the destination holds exactly `path`'s bytes under `target`'s name: present, of `size`, and,
    /// where it computes a SHA-256, the same as the local file's (a local re-read; the file is checked to be the
    /// version that was sent first). A missing file or another size fails with
    /// ``UploadError/notStored(path:destination:detail:)``, other bytes with
    /// ``UploadError/storedBytesDiffer(path:destination:)``. Returns what the stored file was checked by.
    @discardableResult
    func confirm(
        _ path: String, size: Int64, identity: FileIdentity?, at target: UploadTarget, sha256 sent: String? = nil
    )
        async throws(UploadError) -> ContentCheck
    {
        let stored = try await ask(
            at: target, withChecksum: true, for: path, question: "whether it holds the file")
        switch stored {
        case .unknown: return .size
        case .absent:
            throw .notStored(path: path, destination: target.label, detail: "the server holds no file of that name")
        case .file(let storedSize, let remote):
            guard storedSize == size else {
                throw .notStored(
                    path: path, destination: target.label,
                    detail:
                        "the server holds \(ByteCountFormat.string(storedSize)), not \(ByteCountFormat.string(size))")
            }
            guard let remote else { return .size }
            var local = sent
            if local == nil {
                try identity?.check(path)
                do { local = try SHA256Hasher.hash(file: path) } catch {
                    throw .localFile(path: path, message: error.detailWithoutPath)
                }
                try identity?.check(path)
            }
            // The server's digest is the validator; the local file's is what it must match.
            let verdict = ContentVerification.check(
                actual: remote, against: local.flatMap { Checksum(algorithm: .sha256, hex: $0) })
            guard case .success(let check) = verdict else {
                throw .storedBytesDiffer(path: path, destination: target.label)
            }
            return check
        }
    }

    /// ``stored(at:withChecksum:)`` for an upload of `path`: a question cut short by the task's cancel (a Ctrl-C)
    /// ends as ``UploadError/cancelled(path:)`` — what the uploader pauses or gives up by its own rule — and any
    /// other failure to answer as ``UploadError/notStored(path:destination:detail:)`` naming the `question`.
    func ask(at target: UploadTarget, withChecksum: Bool, for path: String, question: String)
        async throws(UploadError) -> StoredFile
    {
        do {
            return try await stored(at: target, withChecksum: withChecksum)
        } catch {
            if Task.isCancelled || error is CancellationError { throw .cancelled(path: path) }
            if let error = error as? UploadError { throw error }
            throw .notStored(
                path: path, destination: target.label, detail: "could not ask the server \(question) (\(error))")
        }
    }
}
