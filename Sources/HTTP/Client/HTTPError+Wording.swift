import FileModel

/// What a failed request means to someone who never saw its URL: the subject it was about (a location, a server)
/// and what happened, with no method, URL or libcurl code (those stay in ``HTTPError/description``, for `-v`).
extension HTTPError {
    /// The request label every case carries (`GET http://…`), nil for the cases that have none.
    package var requestLabel: String? {
        switch self {
        case .transport(let request, _, _), .responseTooLarge(let request, _), .cancelled(let request),
            .rejected(let request, _, _), .lengthExceeded(let request, _), .headersTooLarge(let request),
            .tooSlow(let request, _, _), .redirectRefused(let request, _), .tooManyRedirects(let request, _),
            .credentialScope(let request, _), .invalidHeader(let request, _), .offline(let request),
            .gaveUp(let request, _, _), .notAvailable(let request, _):
            request
        case .localFile, .noSpace, .unsupportedURL: nil
        }
    }

    /// One line about `subject` (what the request was for, as the user wrote it) with `server` (the origin, for
    /// "cannot reach"): what happened, in the user's terms.
    package func wording(subject: String, server: String) -> String {
        switch self {
        case .transport(_, let code, let message):
            Self.transportWording(code: code, message: message, subject: subject, server: server)
        case .responseTooLarge(_, let limit):
            "\(subject): the server's answer is larger than \(ByteCountFormat.string(Int64(limit)))"
        case .localFile(let path, let message): "\(path): \(message)"
        // The disk is full, not the file: its folder is named (never a temp file's name).
        case .noSpace(let path): "\(Self.folder(of: path)): no space left on the disk"
        case .unsupportedURL(let url):
            "\(URLRedaction.redacted(url)): only http:// and https:// addresses are supported"
        case .cancelled: "\(subject): cancelled"
        case .rejected(_, let status, let reason):
            "\(subject): the server answered \(status), not what was asked for (\(reason))"
        case .lengthExceeded(_, let limit):
            "\(subject): the server sent more than the \(ByteCountFormat.string(limit)) expected; stopped there"
        case .headersTooLarge: "\(subject): the server's answer headers are too large for any real server's"
        case .tooSlow(_, let rate, let seconds):
            "\(subject): slower than \(ByteCountFormat.string(Int64(rate)))/s for \(seconds) s; gave up"
        case .redirectRefused(_, let location):
            "\(subject): not following a redirect to \(URLRedaction.redacted(location)) (another server)"
        case .tooManyRedirects(_, let limit): "\(subject): more than \(limit) redirects"
        case .credentialScope(_, let origin):
            "\(subject): not sent: the token belongs to \(origin) and is never sent to another server"
        case .invalidHeader(_, let name):
            "\(subject): the \(name) header holds a line break or control character; nothing was sent"
        case .offline: "\(subject): needs the server (offline)"
        case .notAvailable(_, let what): "\(subject): \(what) is not available on this platform"
        case .gaveUp(_, let attempts, let reason): "\(subject): gave up after \(attempts) attempts (\(reason))"
        }
    }

    /// What went wrong, as a phrase with no subject, for retry lines and "gave up (…)": no URL, no libcurl code.
    package var reason: String {
        switch self {
        case .transport(_, let code, let message):
            switch code {
            case TransportCode.couldNotResolve: "no such host"
            case TransportCode.couldNotConnect: "connection refused"
            case TransportCode.timedOut: "timed out"
            case TransportCode.tlsHandshake: "the secure handshake failed"
            case 51, 60: "certificate not trusted (\(Self.certificateProblem(message)))"
            case TransportCode.pinnedKeyMismatch: "the server's key is not the pinned one"
            case TransportCode.gotNothing: "the server closed the connection without answering"
            case TransportCode.partialFile: "the answer ended early"
            case TransportCode.sendError, TransportCode.receiveError, TransportCode.http2, TransportCode.http2Stream:
                "the connection broke"
            default: "the transfer failed"
            }
        case .tooSlow(_, let rate, let seconds): "slower than \(ByteCountFormat.string(Int64(rate)))/s for \(seconds) s"
        case .offline: "offline"
        case .rejected(_, let status, _): "unexpected answer \(status)"
        case .gaveUp(_, let attempts, let reason): "gave up after \(attempts) attempts (\(reason))"
        default: wording(subject: "the request", server: "the server")
        }
    }

    /// The folder holding `path`.
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Connection failures name the server; failures of a transfer under way name its subject.
    static func transportWording(code: Int, message: String, subject: String, server: String) -> String {
        switch code {
        case TransportCode.couldNotResolve: "cannot reach \(server) (no such host)"
        case 5: "cannot reach \(server) (no such proxy host)"
        case TransportCode.couldNotConnect: "cannot reach \(server) (connection refused)"
        case TransportCode.timedOut: "\(subject): timed out"
        case TransportCode.tlsHandshake: "the server at \(server) does not speak https (the secure handshake failed)"
        case 51, 60:
            "\(server): its certificate is not trusted (\(Self.certificateProblem(message)))"
        case 58, 77: "\(server): the certificate file cannot be used (\(Self.certificateProblem(message)))"
        case TransportCode.pinnedKeyMismatch: "\(server): its key is not the one pinned for it; nothing was sent"
        case TransportCode.gotNothing: "\(subject): the server closed the connection without answering"
        case TransportCode.partialFile: "\(subject): the connection ended before the whole answer came"
        case TransportCode.sendError, TransportCode.receiveError, TransportCode.http2, TransportCode.http2Stream:
            "\(subject): the connection broke"
        case 27: "\(subject): out of memory"
        case 2: "\(subject): the network library could not start"
        default: "\(subject): the transfer failed"
        }
    }

    /// The certificate part of libcurl's message, without its `SSL certificate problem:` lead.
    static func certificateProblem(_ message: String) -> String {
        let lead = "SSL certificate problem: "
        let problem = message.hasPrefix(lead) ? String(message.dropFirst(lead.count)) : message
        return problem.isEmpty ? "unknown problem" : problem
    }

    /// True for the failures `--cacert FILE` or `--insecure` settle: the server's certificate is not trusted.
    package var isUntrustedCertificate: Bool {
        if case .transport(_, let code, _) = self { return code == 51 || code == 60 }
        return false
    }
}
