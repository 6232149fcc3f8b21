import HTTP

/// What a server says of a file before we fetch it (from a HEAD answer).
struct RemoteFileInfo: Sendable, Equatable {
    var total: Int64?
    var etag: String?
    var lastModified: String?
    var acceptsRanges: Bool
    /// What `Accept-Ranges` said, if anything (`bytes`, `none`): whether ranges must be tried is decided from it.
    var acceptRanges: String?
    /// The answer's header fields, when it came from one: what else a caller reads of that version (an object's
    /// stored SHA-256).
    var headers: HTTPHeaders?

    init(headers: HTTPHeaders) {
        self.headers = headers
        total = headers["Content-Length"].flatMap { Int64($0) }
        etag = headers["ETag"]
        lastModified = headers["Last-Modified"]
        acceptRanges = headers["Accept-Ranges"]
        acceptsRanges = acceptRanges?.lowercased().contains("bytes") ?? false
    }

    init(total: Int64?, etag: String?, lastModified: String?, acceptsRanges: Bool) {
        self.total = total
        self.etag = etag
        self.lastModified = lastModified
        self.acceptsRanges = acceptsRanges
    }

    /// The ETag when it is strong: a weak one (`W/`) vouches for no bytes.
    var strongETag: String? { etag.flatMap { $0.hasPrefix("W/") ? nil : $0 } }

    /// A validator for `If-Range`: a strong ETag, else Last-Modified; weak ETags cannot be used.
    var rangeValidator: String? { strongETag ?? lastModified }

    /// Resuming needs ranges, a known length and a validator that proves the bytes are the same version.
    var isResumable: Bool { acceptsRanges && total != nil && rangeValidator != nil }
}
