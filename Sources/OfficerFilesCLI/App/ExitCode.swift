import FileModel
import HTTP
import Officer
import Preview
import Transfer

/// The CLI's exit codes, documented in the README.
public enum ExitCode: Int32, Sendable {
    /// Success.
    case success = 0
    /// Something failed that has no more specific code (including partial failure of a batch).
    case failure = 1
    /// The command line was wrong: unknown command or option, missing argument, malformed path.
    case usage = 2
    /// Not logged in, token expired or revoked, wrong password.
    case authentication = 3
    /// A file or folder does not exist.
    case notFound = 4
    /// The destination exists, a folder is not empty, or similar.
    case conflict = 5
    /// The network failed: connection refused, timeout, TLS.
    case network = 6
    /// The server failed (5xx) or answered outside the contract.
    case server = 7
    /// A local file could not be read or written.
    case localFile = 8
    /// The server refused the request (permission, outside the root, bad request).
    case refused = 9
    /// Interrupted (Ctrl-C).
    case interrupted = 130

    /// The exit code an error maps to.
    public static func of(_ error: any Error) -> ExitCode {
        switch error {
        case is ArgumentError, is RemotePathError: return .usage
        case is CancellationError: return .interrupted
        case let error as CLIError: return error.exitCode
        case is ConfigError, is MagicError: return .localFile
        case let error as ArchiveError:
            switch error {
            case .allocationFailed, .openFailed, .readFailed: return .localFile
            case .notAFile, .encrypted, .tooLarge: return .refused
            }
        case let error as HTTPError: return of(httpError: error)
        case let error as RemoteActionError:
            switch error {
            case .unsupported, .notAFile: return .refused
            case .server(_, let inner): return of(inner)
            case .upload(_, let inner): return of(inner)
            case .download(_, let inner): return of(inner)
            case .localFile: return .localFile
            case .timedOut: return .network
            }
        case let error as CacheError:
            switch error {
            case .index, .io: return .localFile
            case .tooLarge: return .refused
            case .notCached: return .notFound
            }
        case let error as ImageError:
            switch error {
            case .invalidOption: return .usage
            case .writeFailed, .unreadable: return .localFile
            case .outputExists: return .conflict
            case .unsupported, .tooManyPixels, .undecodable, .outputIsInput: return .refused
            }
        case let error as UploadError:
            switch error {
            case .localFile, .journal: return .localFile
            case .notTus: return .usage
            case .tooLarge: return .refused
            case .server(_, let status, _): return of(status: status)
            case .protocolViolation, .checksumRejected: return .server
            case .transfer(let inner): return of(httpError: inner)
            case .cancelled, .paused: return .interrupted
            }
        case let error as DownloadError:
            switch error {
            case .destinationExists, .destinationIsDirectory, .busy: return .conflict
            case .server(_, let status, _): return of(status: status)
            case .checksumMismatch: return .failure
            case .lengthMismatch, .unstable, .unexpectedAnswer: return .server
            case .transfer(let inner): return of(httpError: inner)
            case .journal, .localFile: return .localFile
            }
        case let error as SyncRootError:
            switch error {
            case .notAFolder: return .conflict
            case .missing: return .localFile
            }
        case let error as OfficerError:
            switch error {
            case .notSignedIn, .invalidCredentials: return .authentication
            case .notFound: return .notFound
            case .conflict: return .conflict
            case .forbidden, .badRequest: return .refused
            case .server, .malformedResponse, .notOfficerServer: return .server
            case .transport(let inner): return of(httpError: inner)
            case .invalidPath: return .usage
            }
        default: return .failure
        }
    }

    private static func of(status: Int) -> ExitCode {
        switch status {
        case 401: .authentication
        case 404: .notFound
        case 409: .conflict
        case 400, 403, 413, 415, 422: .refused
        default: .server
        }
    }

    private static func of(httpError: HTTPError) -> ExitCode {
        switch httpError {
        case .localFile: .localFile
        case .cancelled: .interrupted
        case .unsupportedURL: .usage
        case .rejected, .lengthExceeded, .headersTooLarge, .responseTooLarge, .tooManyRedirects: .server
        case .credentialScope, .redirectRefused, .invalidHeader, .offline: .refused
        case .transport, .tooSlow: .network
        }
    }
}
