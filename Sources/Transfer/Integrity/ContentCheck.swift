/// What a file's bytes were checked against before they became visible (took their name, entered the cache, were
/// reported done): the strongest validator the remote offered. The order is the strength.
package enum ContentCheck: String, Sendable, Codable, Comparable, CaseIterable {
    /// Only the length and the version the server named (an ETag, a time): a byte flipped on the way passes.
    case size
    /// An MD5 the remote computed (an object store's single-part ETag, rclone's `md5chksum`).
    case md5
    /// A SHA-256 the remote computed (the Officer server's checksum, the one stored with an object) or the user gave.
    case sha256

    package static func < (lhs: ContentCheck, rhs: ContentCheck) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
