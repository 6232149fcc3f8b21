import FileModel

/// Builds query strings that every server decodes the same way: only RFC 3986 unreserved characters
/// stay literal, so `+`, `&`, `=`, `#` and non-ASCII names survive the trip.
package enum URLQuery {
    /// Percent-encodes one query component (`/` kept literal unless `keepingSlashes` is false: S3 signs a path
    /// segment with its slashes encoded) in upper-case hex.
    package static func escape(_ text: String, keepingSlashes: Bool = true) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                result.append(Character(UnicodeScalar(byte)))
            case UInt8(ascii: "/") where keepingSlashes:
                result.append("/")
            default:
                result += "%" + HexDigits.uppercase(CollectionOfOne(byte))
            }
        }
        return result
    }

    /// `a=1&b=two%20words` from ordered pairs.
    package static func encode(_ items: [(String, String)]) -> String {
        items.map { escape($0.0) + "=" + escape($0.1) }.joined(separator: "&")
    }
}
