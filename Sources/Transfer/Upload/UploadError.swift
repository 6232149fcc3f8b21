import FileModel
import HTTP
import Journal

/// Why an upload did not complete; a resumable one is kept in the journal for a rerun.
package enum UploadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The local file cannot be read.
    case localFile(path: String, message: String)
    /// The URL does not speak tus and there is no other way to upload there.
    case notTus(url: String)
    /// A stream of unknown length, and the tus server does not take one (no `creation-defer-length`).
    case lengthRequired(url: String)
    /// The file is larger than the server accepts.
    case tooLarge(path: String, size: Int64, limit: Int64)
    /// The server refused or failed the upload.
    case server(request: String, status: Int, message: String)
    /// The server answered outside the tus protocol.
    case protocolViolation(request: String, detail: String)
    /// The server kept rejecting a chunk's checksum.
    case checksumRejected(path: String, offset: Int64)
    /// A network failure that retries did not overcome.
    case transfer(HTTPError)
    /// The journal could not be read or written.
    case journal(SQLiteError)
    /// The upload was cancelled before the server held any of it, or removed from the server as asked
    /// (``UploadOptions/terminateOnCancel``).
    case cancelled(path: String)
    /// The local file changed (edited, replaced, grown) while it was being sent: nothing was stored under its
    /// name, and a rerun sends the new version.
    case sourceChanged(path: String)
    /// The server did not confirm holding the file: after the last request failed or was in doubt, it lists
    /// nothing under `destination`, another size, or other bytes (`detail`). The journal keeps what a rerun needs.
    case notStored(path: String, destination: String, detail: String)
    /// The server holds a file of the right size under `destination` whose SHA-256 is not the local file's: the
    /// bytes it kept were damaged (a resumed upload's earlier part, a partial upload changed on the server).
    case storedBytesDiffer(path: String, destination: String)
    /// The server has no room for the file (507); `givenBack` when what it held of the upload was removed.
    case serverFull(destination: String, message: String, givenBack: Bool = false)
    /// The upload was cancelled and paused: the server keeps the `confirmed` bytes and the journal the upload,
    /// so the same call continues it.
    case paused(path: String, confirmed: Int64, total: Int64)

    /// A one-line message.
    package var description: String {
        switch self {
        case .localFile(let path, let message): "\(path): \(message)"
        case .notTus(let url): "\(url) is not a tus 1.0 upload endpoint"
        case .lengthRequired(let url):
            "\(url): the server does not take uploads of unknown length (tus creation-defer-length)"
        case .tooLarge(let path, let size, let limit):
            "\(path): \(size) bytes is more than the server accepts (\(limit))"
        case .server(let request, let status, let message): "\(request): server answered \(status): \(message)"
        case .protocolViolation(let request, let detail): "\(request): not a valid tus answer: \(detail)"
        case .checksumRejected(let path, let offset):
            "\(path): the server rejected the checksum of the chunk at byte \(offset) again and again"
        case .transfer(let error): error.description
        case .journal(let error): error.description
        case .sourceChanged(let path): "\(path) changed while it was being uploaded; run it again"
        case .notStored(let path, let destination, let detail): "\(path): not stored as \(destination): \(detail)"
        case .storedBytesDiffer(let path, let destination):
            "\(path): the server's copy at \(destination) has other bytes (its SHA-256 differs)"
        case .serverFull(let destination, let message, let givenBack):
            "\(destination): the server has no space left (\(message))"
                + (givenBack
                    ? "; what it held of this upload was removed to give that space back, so the same command sends it again from the start"
                    : "")
        case .cancelled(let path): "\(path): upload cancelled"
        case .paused(let path, let confirmed, let total):
            "\(path): upload paused at \(ByteCountFormat.string(confirmed)) of \(ByteCountFormat.string(total))"
        }
    }
}

extension UploadError {
    /// The server does not hold the file as sent: nothing under its name, another size, or other bytes.
    package var isNotStored: Bool {
        switch self {
        case .notStored, .storedBytesDiffer: true
        default: false
        }
    }
}
