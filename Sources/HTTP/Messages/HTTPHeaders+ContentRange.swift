extension HTTPHeaders {
    /// `Content-Range` parsed: the byte range sent (nil for `bytes */TOTAL`) and the total length if known;
    /// nil when absent or malformed.
    package var contentRange: (range: ClosedRange<Int64>?, total: Int64?)? {
        self["Content-Range"].flatMap(Self.parseContentRange)
    }

    /// Parses `bytes A-B/TOTAL` (or `bytes */TOTAL` as nil range).
    package static func parseContentRange(_ value: String) -> (range: ClosedRange<Int64>?, total: Int64?)? {
        guard value.hasPrefix("bytes ") else { return nil }
        let rest = value.dropFirst(6)
        let parts = rest.split(separator: "/", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let total = parts[1] == "*" ? nil : Int64(parts[1])
        if parts[0] == "*" { return (nil, total) }
        let bounds = parts[0].split(separator: "-", maxSplits: 1)
        guard bounds.count == 2, let start = Int64(bounds[0]), let end = Int64(bounds[1]), start <= end else {
            return nil
        }
        return (start...end, total)
    }
}
