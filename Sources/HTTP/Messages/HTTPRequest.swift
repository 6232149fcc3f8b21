import Foundation

/// One HTTP request for ``HTTPClient``: where its body comes from and where the response body goes.
package struct HTTPRequest: Sendable {
    /// Where the request body comes from.
    package enum Body: Sendable {
        /// No body.
        case empty
        /// Bytes in memory (JSON bodies, small uploads).
        case data(Data, contentType: String)
        /// A byte range of a local file, streamed; never read into memory whole.
        case file(path: String, offset: Int64, length: Int64, contentType: String)
        /// A `multipart/form-data` body of fields and at most one file or stream part (the one whose end
        /// ``HTTPRequest/beforeLastBodyBytes`` guards); an engine refuses a body with more before sending it.
        case multipart([MultipartPart])
    }

    /// One part of a multipart body.
    package enum MultipartPart: Sendable {
        /// A text field.
        case field(name: String, value: String)
        /// A file streamed from disk under the given file name.
        case file(name: String, path: String, filename: String, contentType: String?)
        /// Bytes as they come (a pipe) under the given file name; the body goes chunked, its length unknown.
        case stream(name: String, source: BodyStream, filename: String, contentType: String?)
    }

    /// Where the response body goes.
    package enum Sink: Sendable {
        /// Kept in memory up to `limit` bytes; a longer body fails the request.
        case memory(limit: Int)
        /// Written to a local file at `offset` (the file is created if missing); `nil` truncates it first.
        /// Only a 2xx body is written there; any other status's body is kept in memory for its error message.
        case file(path: String, offset: Int64?)
        /// Written to an open descriptor (stdout for `cat`) as it arrives; never seeked, never closed.
        case stream(fileDescriptor: Int32)
        /// Like ``stream(fileDescriptor:)``, and also copied to `copyDescriptor` (a cache entry being filled) until
        /// `copyLimit` bytes; past that limit, or after a failed write, the copy is abandoned and the caller, seeing
        /// its length fall short, drops it. The main output never suffers for the copy.
        case streamWithCopy(fileDescriptor: Int32, copyDescriptor: Int32, copyLimit: Int64)

        /// Whether the body goes to a local file (which an engine may fill from a download task's file).
        package var isFile: Bool {
            if case .file = self { true } else { false }
        }
    }

    /// Decides, once the final response's headers are in and before any body byte is stored, whether the
    /// response is the one asked for: nil accepts it, a reason rejects it (``HTTPError/rejected(request:status:reason:)``).
    package typealias ResponseCheck = @Sendable (_ status: Int, _ headers: HTTPHeaders) -> String?

    /// `GET`, `POST`, `PATCH`, … .
    package var method: String
    /// Absolute http(s) URL.
    package var url: String
    /// Extra header fields (never `Authorization`: use ``credential``). A value with a line break or another
    /// control character fails the request before anything is sent.
    package var headers: HTTPHeaders
    /// The body.
    package var body: Body
    /// Where the response body goes.
    package var sink: Sink
    /// Sent as `Authorization: Bearer …`, and only to the credential's own origin: a request whose URL is on
    /// another origin fails before any connection (``HTTPError/credentialScope(request:origin:)``), and a redirect
    /// hop to another origin goes without it.
    package var credential: BearerCredential?
    /// Which 3xx redirects are followed (http and https only, at most the configuration's limit, each hop logged).
    package var redirects: RedirectPolicy
    /// The longest 2xx body accepted (what a listing, a HEAD or a range said): the transfer fails at the first
    /// byte beyond it. A `206`'s `Content-Range` and any `Content-Length` bound the body as well, whatever this says.
    package var expectedLength: Int64?
    /// Whether a failed attempt may be repeated; defaults to true for GET, HEAD, PUT, DELETE and OPTIONS.
    package var isIdempotent: Bool
    /// Checks the response before its body is stored (a `Range` answer against the range asked for).
    package var responseCheck: ResponseCheck?
    /// Receive at most this many bytes per second (`--bwlimit`).
    package var maxReceiveBytesPerSecond: Int64?
    /// Send at most this many bytes per second (`--bwlimit` on uploads).
    package var maxSendBytesPerSecond: Int64?
    /// Asked before the last bytes of a file body (or of a multipart body's file) are read: a reason stops the
    /// request there, so a server never receives the end of a file that changed while it was sent
    /// (``HTTPError/localFile(path:message:)`` with that reason).
    package var beforeLastBodyBytes: (@Sendable () -> String?)?
    /// Hears each 2xx body chunk once it is stored in a stream or file sink, in order: a digest taken of bytes that
    /// cannot be read back (a `cat` to stdout), checked when the stream ends.
    package var onStoredBytes: (@Sendable (UnsafeRawBufferPointer) -> Void)?
    /// Opens a connection of its own and closes it after: after a link cut a reused connection mid-request, the
    /// next request does not start on one that already carried bytes.
    package var freshConnection = false
    /// Which journaled transfer this request carries, and which piece of it (`download PATH #RANGE FROM-THROUGH`,
    /// `upload KEY #PART OFFSET+LENGTH`): the URLSession engine labels its task with it (`taskDescription`), so the
    /// tasks a background session reports after a relaunch can be told apart and matched to the journal.
    package var transferLabel: String?

    /// The caller records this answer durably (its journal) before it may be forgotten: an engine whose tasks outlive
    /// their process keeps the labelled task, adoptable by a later process, until ``HTTPEngine/releaseTask(labelled:)``,
    /// so a kill between the answer and the journal's record of it does not cost the piece.
    package var keepsTaskUntilReleased = false

    /// Sends or receives more of a file's bytes than one HTTP/2 flow-control window (64 KiB) holds: what HTTP/2
    /// streams carry worst (``HTTPClientConfiguration/bulkOverHTTP2``). A stream's window is the receiver's (nginx
    /// opens 64 KiB for a request body), so a large body crawls at a window a round trip; and ranges fetched in
    /// parallel for several connections' windows would share one.
    package var isBulk: Bool {
        let window: Int64 = 64 << 10
        switch body {
        case .file(_, _, let length, _) where length > window: return true
        case .data(let data, _) where data.count > window: return true
        case .multipart(let parts):
            let large = parts.contains { part in
                switch part {
                case .field: false
                case .file(_, let path, _, _):
                    ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64) ?? nil).map {
                        $0 > window
                    } ?? true
                case .stream: true
                }
            }
            if large { return true }
        default: break
        }
        switch sink {
        case .file: return expectedLength.map { $0 > window } ?? true
        case .stream, .streamWithCopy: return expectedLength.map { $0 > window } ?? false
        case .memory: return false
        }
    }

    /// Creates a request; the body defaults to none, the sink to 16 MiB of memory, redirects to the same origin only.
    package init(
        method: String = "GET", url: String, headers: HTTPHeaders = HTTPHeaders(), body: Body = .empty,
        sink: Sink = .memory(limit: 16 << 20), credential: BearerCredential? = nil,
        redirects: RedirectPolicy = .sameOrigin,
        isIdempotent: Bool? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.sink = sink
        self.credential = credential
        self.redirects = redirects
        self.isIdempotent = isIdempotent ?? ["GET", "HEAD", "PUT", "DELETE", "OPTIONS"].contains(method)
    }
}

/// Which redirects a request follows.
package enum RedirectPolicy: Sendable, Equatable {
    /// None: a 3xx is the answer.
    case never
    /// Only to the origin of the URL asked for (API calls: another host's JSON is never taken for our server's).
    case sameOrigin
    /// To any http(s) origin (file downloads handed to a CDN or a presigned URL); the credential is not sent there.
    case anyOrigin
}

extension HTTPRequest {
    /// The body comes from a pipe (a multipart part with a ``BodyStream``): its pace is its producer's.
    package var hasStreamBody: Bool {
        guard case .multipart(let parts) = body else { return false }
        return parts.contains { if case .stream = $0 { true } else { false } }
    }
}
