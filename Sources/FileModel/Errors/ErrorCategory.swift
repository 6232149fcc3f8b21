/// What kind of failure an error is, in the user's terms: what an app shows or a CLI turns into an exit code,
/// without matching any message text.
///
/// Cases may be added in a later version: a `switch` over it keeps a `default`.
public enum ErrorCategory: String, Sendable, Codable, CaseIterable {
    /// Not signed in, the token expired or was revoked, the password was wrong.
    case authentication
    /// The file or folder does not exist (or is not in the cache when offline).
    case notFound
    /// The destination exists, a folder is not empty, another writer holds the file.
    case conflict
    /// The network failed: connection refused, timeout, TLS, a link too slow.
    case network
    /// The server failed (5xx) or answered outside its contract.
    case server
    /// The server has no space left for what was sent (507 Insufficient Storage).
    case serverFull
    /// A local file or folder could not be read or written.
    case localFile
    /// The local disk (or the user's quota on it) has no space left: every next write there fails too.
    case localFull
    /// Refused: by the server (permission, bad request, too large) or by a rule of ours (a token for another
    /// origin, offline, an action that does not fit the file).
    case refused
    /// The bytes did not match what they were checked against (a checksum).
    case integrity
    /// What the caller asked for is malformed (a path, an option value).
    case invalidInput
    /// Stopped on purpose (task cancelled, Ctrl-C); for uploads the server keeps what it has.
    case cancelled
}

/// An error that knows its ``ErrorCategory``. Every error the library throws conforms.
public protocol CategorizedError: Error {
    /// What kind of failure this is.
    var category: ErrorCategory { get }
}

extension RemotePathError: CategorizedError {
    /// A malformed path is always the caller's input.
    package var category: ErrorCategory { .invalidInput }
}

extension ErrorCategory {
    /// The category of any error: its own when it has one, cancelled for a `CancellationError`, the local disk's
    /// for what Foundation's file calls throw, else server (an error no layer classified is a contract the other
    /// side broke).
    public static func of(_ error: any Error) -> ErrorCategory {
        if let categorized = error as? any CategorizedError { return categorized.category }
        if error is CancellationError { return .cancelled }
        if let code = SystemWording.posixCode(of: error) {
            return SystemWording.isOutOfSpace(code) ? .localFull : .localFile
        }
        return .server
    }
}
