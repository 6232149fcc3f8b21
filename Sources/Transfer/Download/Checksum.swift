import HTTP

/// An expected digest of a file's bytes: `--checksum sha256:HEX`, the server's SHA-256, an object store's stored
/// SHA-256 or its single-part MD5 ETag.
package struct Checksum: Sendable, Equatable, CustomStringConvertible {
    /// The hash function.
    package let algorithm: SHA256Hasher.Algorithm
    /// Lowercase hex.
    package let hex: String

    /// Parses `sha256:HEX` (64 hex digits) or `md5:HEX` (32), any case.
    package init?(parsing text: String) {
        let parts = text.split(separator: ":", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        switch parts[0].lowercased() {
        case "sha256": self.init(algorithm: .sha256, hex: String(parts[1]))
        case "md5": self.init(algorithm: .md5, hex: String(parts[1]))
        default: return nil
        }
    }

    /// A digest of `algorithm` (SHA-256 or MD5) in hex; nil when the text is not one.
    package init?(algorithm: SHA256Hasher.Algorithm, hex: String) {
        let length: Int
        switch algorithm {
        case .sha256: length = 64
        case .md5: length = 32
        case .sha1: return nil
        }
        guard hex.count == length, hex.allSatisfy(\.isHexDigit) else { return nil }
        self.algorithm = algorithm
        self.hex = hex.lowercased()
    }

    /// The hex SHA-256 when that is the function; nil for an MD5.
    package var sha256: String? { algorithm == .sha256 ? hex : nil }

    /// What bytes checked against this were checked by.
    package var check: ContentCheck { algorithm == .md5 ? .md5 : .sha256 }

    /// `sha256:hex` or `md5:hex`.
    package var description: String { (algorithm == .md5 ? "md5:" : "sha256:") + hex }
}
