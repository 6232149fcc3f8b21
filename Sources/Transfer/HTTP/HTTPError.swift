/// A transfer that did not complete, with the request it belongs to.
public enum HTTPError: Error, Equatable, Sendable, CustomStringConvertible {
    /// libcurl failed: its code and its own message (connection refused, timeout, TLS, …).
    case transport(request: String, code: Int, message: String)
    /// The response body was larger than the memory sink allows.
    case responseTooLarge(request: String, limit: Int)
    /// A local file used as body or sink could not be opened or written.
    case localFile(path: String, message: String)
    /// The URL is not an http(s) URL.
    case unsupportedURL(String)
    /// The caller cancelled the transfer.
    case cancelled(request: String)
    /// The response was not the one asked for (the request's response check refused it); nothing was stored.
    case rejected(request: String, status: Int, reason: String)

    /// A one-line message.
    public var description: String {
        switch self {
        case .transport(let request, let code, let message): "\(request): \(message) (curl error \(code))"
        case .responseTooLarge(let request, let limit): "\(request): response larger than \(limit) bytes"
        case .localFile(let path, let message): "\(path): \(message)"
        case .unsupportedURL(let url): "\(url): only http:// and https:// URLs are supported"
        case .cancelled(let request): "\(request): cancelled"
        case .rejected(let request, let status, let reason): "\(request): unexpected answer \(status): \(reason)"
        }
    }

    /// libcurl codes worth another attempt: the network, not the request, was at fault.
    var isRetryable: Bool {
        guard case .transport(_, let code, _) = self else { return false }
        // 7 couldn't connect, 18 partial file, 28 timeout, 52 empty reply, 55/56 send/recv, 16/92 HTTP/2 stream.
        return [7, 16, 18, 28, 52, 55, 56, 92].contains(code)
    }
}
