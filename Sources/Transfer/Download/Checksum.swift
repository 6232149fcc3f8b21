import HTTP

/// An expected digest, as given with `--checksum sha256:HEX`.
package struct Checksum: Sendable, Equatable, CustomStringConvertible {
    /// Lowercase hex SHA-256.
    package let sha256: String

    /// Parses `sha256:HEX` (64 hex digits, any case).
    package init?(parsing text: String) {
        let parts = text.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "sha256", parts[1].count == 64,
            parts[1].allSatisfy(\.isHexDigit)
        else { return nil }
        sha256 = parts[1].lowercased()
    }

    /// `sha256:hex`.
    package var description: String { "sha256:" + sha256 }
}
