import HTTP
import Journal

/// Why a download did not complete; the temp file and journal are kept where a rerun can use them.
package enum DownloadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The destination exists and `force` was not given.
    case destinationExists(path: String)
    /// The destination is a folder.
    case destinationIsDirectory(path: String)
    /// The folder the destination would go in does not exist (nothing is created for it).
    case noSuchFolder(path: String)
    /// Another process is downloading to the same destination.
    case busy(path: String)
    /// The server answered with an error status.
    case server(url: String, status: Int, message: String)
    /// The bytes do not hash to the expected checksum; the temp file was removed.
    case checksumMismatch(path: String, expected: String, actual: String)
    /// The file ended up with another length than the server announced.
    case lengthMismatch(path: String, expected: Int64, actual: Int64)
    /// The file kept changing on the server while being fetched.
    case unstable(url: String)
    /// Bytes already written out (a stream to stdout, which cannot be taken back) do not match the remote's
    /// checksum: damaged on the way, or shorter than the file.
    case damagedStream(url: String, output: String, expected: String, actual: String)
    /// The server's answers did not fit what was asked (a range it was not asked for, no length); nothing was kept.
    case unexpectedAnswer(url: String, reason: String)
    /// A network or local-file failure that retries did not overcome.
    case transfer(HTTPError)
    /// The journal could not be read or written.
    case journal(SQLiteError)
    /// A local file operation failed.
    case localFile(path: String, message: String)

    /// A one-line message.
    package var description: String {
        switch self {
        case .destinationExists(let path): "\(path): already exists"
        case .destinationIsDirectory(let path): "\(path): is a folder"
        case .busy(let path): "\(path): another download is writing to it"
        case .noSuchFolder(let path): "\(path): no such folder"
        case .server(let url, let status, let message): "\(url): server answered \(status): \(message)"
        case .checksumMismatch(let path, let expected, let actual):
            "\(path): the bytes that arrived hash to \(actual), not the expected \(expected); nothing was saved"
        case .lengthMismatch(let path, let expected, let actual): "\(path): got \(actual) bytes, expected \(expected)"
        case .unstable(let url): "\(url): the file kept changing on the server; try again later"
        case .damagedStream(let url, let output, let expected, let actual):
            "\(url): the bytes written to \(output) were damaged on the way (they hash to \(actual), not \(expected))"
        case .unexpectedAnswer(let url, let reason): "\(url): the server's answer does not fit the request: \(reason)"
        case .transfer(let error): error.description
        case .journal(let error): error.description
        case .localFile(let path, let message): "\(path): \(message)"
        }
    }
}
