/// What a file's bytes were checked against before they became visible (took their name, entered the cache, were
/// reported done): the strongest validator the remote offered. The order of the cases is the strength.
///
/// Complete: no case will be added without a new major version.
public enum ContentCheck: String, Sendable, Codable, CaseIterable {
    /// Only the length and the version the server named (an ETag, a time): a byte flipped on the way passes.
    case size
    /// An MD5 the remote computed (an object store's single-part ETag, rclone's `md5chksum`).
    case md5
    /// A SHA-256 the remote computed (the Officer server's checksum, the one stored with an object) or the user gave.
    case sha256

    /// Whether `other` says more of the bytes than this.
    package func isWeaker(than other: ContentCheck) -> Bool {
        Self.allCases.firstIndex(of: self)! < Self.allCases.firstIndex(of: other)!
    }
}
