/// What a server says of a file before we fetch it (from a HEAD answer).
struct RemoteFileInfo: Sendable, Equatable {
    var total: Int64?
    var etag: String?
    var lastModified: String?
    var acceptsRanges: Bool

    init(headers: HTTPHeaders) {
        total = headers["Content-Length"].flatMap { Int64($0) }
        etag = headers["ETag"]
        lastModified = headers["Last-Modified"]
        acceptsRanges = headers["Accept-Ranges"]?.lowercased().contains("bytes") ?? false
    }

    init(total: Int64?, etag: String?, lastModified: String?, acceptsRanges: Bool) {
        self.total = total
        self.etag = etag
        self.lastModified = lastModified
        self.acceptsRanges = acceptsRanges
    }

    /// A validator for `If-Range`: a strong ETag, else Last-Modified; weak ETags cannot be used.
    var rangeValidator: String? {
        if let etag, !etag.hasPrefix("W/") { return etag }
        return lastModified
    }

    /// Resuming needs ranges, a known length and a validator that proves the bytes are the same version.
    var isResumable: Bool { acceptsRanges && total != nil && rangeValidator != nil }

    /// Parses `bytes A-B/TOTAL` (or `bytes */TOTAL` as nil range).
    static func parseContentRange(_ value: String) -> (range: ClosedRange<Int64>?, total: Int64?)? {
        guard value.hasPrefix("bytes ") else { return nil }
        let rest = value.dropFirst(6)
        let parts = rest.split(separator: "/", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let total = parts[1] == "*" ? nil : Int64(parts[1])
        if parts[0] == "*" { return (nil, total) }
        let bounds = parts[0].split(separator: "-", maxSplits: 1)
        guard bounds.count == 2, let start = Int64(bounds[0]), let end = Int64(bounds[1]), start <= end else { return nil }
        return (start...end, total)
    }
}

extension HTTPHeaders {
    /// `Content-Range` parsed: the byte range sent (nil for `bytes */TOTAL`) and the total length if known;
    /// nil when absent or malformed.
    public var contentRange: (range: ClosedRange<Int64>?, total: Int64?)? {
        self["Content-Range"].flatMap(RemoteFileInfo.parseContentRange)
    }
}
