import FileModel
import Foundation

/// A transfer that did not complete, with the request it belongs to.
package enum HTTPError: Error, Equatable, Sendable, CustomStringConvertible {
    /// libcurl failed: its code and its own message (connection refused, timeout, TLS, …).
    case transport(request: String, code: Int, message: String)
    /// The response body was larger than the memory sink allows.
    case responseTooLarge(request: String, limit: Int)
    /// A local file used as body or sink could not be opened or written.
    case localFile(path: String, message: String)
    /// A local file could not be written: the disk holding it has no space left (or the quota is used up).
    case noSpace(path: String)
    /// The URL is not an http(s) URL.
    case unsupportedURL(String)
    /// The caller cancelled the transfer.
    case cancelled(request: String)
    /// The response was not the one asked for (the request's response check refused it); nothing was stored.
    case rejected(request: String, status: Int, reason: String)
    /// The server sent more body than it announced or than was expected; the transfer stopped at the limit.
    case lengthExceeded(request: String, limit: Int64)
    /// The response's header block was larger than any real server's.
    case headersTooLarge(request: String)
    /// The transfer moved less than `bytesPerSecond` on average over `seconds` (a trickling server).
    case tooSlow(request: String, bytesPerSecond: Int, seconds: Int)
    /// A redirect was refused: to another origin on an API call, or to a URL that is not http(s).
    case redirectRefused(request: String, location: String)
    /// More redirects than the configuration allows.
    case tooManyRedirects(request: String, limit: Int)
    /// The request would have carried a token to an origin other than the one that issued it; nothing was sent.
    case credentialScope(request: String, origin: String)
    /// A header value holds a line break or another control character; nothing was sent.
    case invalidHeader(request: String, name: String)
    /// The client is offline by choice; nothing was sent.
    case offline(request: String)
    /// The engine carrying the request cannot do `what` on this platform (a bandwidth limit through URLSession);
    /// nothing was sent.
    case notAvailable(request: String, what: String)
    /// Attempts ran out: each failed in a way worth retrying (the last `reason` says how), none made progress.
    case gaveUp(request: String, attempts: Int, reason: String)

    /// A one-line message.
    package var description: String {
        switch self {
        case .transport(let request, let code, let message): "\(request): \(message) (transport error \(code))"
        case .responseTooLarge(let request, let limit): "\(request): response larger than \(limit) bytes"
        case .localFile(let path, let message): "\(path): \(message)"
        case .noSpace(let path): "\(path): \(String(cString: strerror(ENOSPC)))"
        case .unsupportedURL(let url): "\(url): only http:// and https:// URLs are supported"
        case .cancelled(let request): "\(request): cancelled"
        case .rejected(let request, let status, let reason): "\(request): unexpected answer \(status): \(reason)"
        case .lengthExceeded(let request, let limit):
            "\(request): the server sent more than the \(limit) bytes expected; stopped there"
        case .headersTooLarge(let request): "\(request): the server's response headers are too large"
        case .tooSlow(let request, let rate, let seconds):
            "\(request): slower than \(rate) bytes/s for \(seconds) s; gave up"
        case .redirectRefused(let request, let location):
            "\(request): refused to follow a redirect to \(location) (another server)"
        case .tooManyRedirects(let request, let limit): "\(request): more than \(limit) redirects"
        case .credentialScope(let request, let origin):
            "\(request): refused: the token belongs to \(origin) and is never sent to another server"
        case .invalidHeader(let request, let name):
            "\(request): the \(name) header holds a line break or control character"
        case .offline(let request): "\(request): not sent: offline (this needs the server)"
        case .notAvailable(let request, let what): "\(request): \(what) is not available with this HTTP engine"
        case .gaveUp(let request, let attempts, let reason): "\(request): gave up after \(attempts) attempts: \(reason)"
        }
    }

    /// A failed system call on the local file `path`, by its error number: a full disk is ``noSpace(path:)`` (a
    /// sync stops at it), anything else the system's words.
    package static func localFile(path: String, errno code: Int32) -> HTTPError {
        SystemWording.isOutOfSpace(code)
            ? .noSpace(path: path) : .localFile(path: path, message: String(cString: strerror(code)))
    }

    /// The message without the path a local-file failure starts with, for errors that name the file themselves.
    package var detailWithoutPath: String {
        if case .localFile(_, let message) = self { return message }
        return description
    }

    /// Transport codes worth another attempt: the network, not the request, was at fault.
    package var isRetryable: Bool {
        if case .gaveUp = self { return false }
        guard case .transport(_, let code, _) = self else { return false }
        return TransportCode.retryable.contains(code)
    }
}
