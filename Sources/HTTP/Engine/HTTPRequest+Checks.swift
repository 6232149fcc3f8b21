/// What every engine checks before anything is sent.
extension HTTPRequest {
    /// Fails for a URL that is not http(s), a header a server could be made to read as two, or a multipart body of
    /// more than one file.
    package func checkBeforeSending(label: String) throws(HTTPError) {
        let lowered = url.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else {
            throw HTTPError.unsupportedURL(url)
        }
        for field in headers where !Self.isSafeHeader(field) {
            throw HTTPError.invalidHeader(request: label, name: String(field.name.prefix(40)))
        }
        if case .multipart(let parts) = body, parts.count(where: { if case .field = $0 { false } else { true } }) > 1 {
            throw HTTPError.notAvailable(request: label, what: "a multipart body of more than one file")
        }
    }

    /// A header field that goes as one line: a token name, a value without line breaks or control characters
    /// (tab allowed). Values come from servers (ETags, tus URLs) and users; a line break would inject a header.
    package static func isSafeHeader(_ field: HTTPHeaders.Field) -> Bool {
        guard !field.name.isEmpty,
            field.name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ":") })
        else { return false }
        return field.value.utf8.allSatisfy { $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }
    }
}
