/// The digests in Swift alone, so the core hashes on any platform with no C library: SHA-256 and SHA-1
/// (FIPS 180-4) and MD5 (RFC 1321), each a ``BlockDigest`` over its own compression function.
package struct PortableHashing: Hashing {
    /// Creates the portable hashing.
    package init() {}

    package var name: String { "Swift digests" }

    package func makeDigest(_ algorithm: DigestAlgorithm) -> any DigestContext {
        switch algorithm {
        case .sha256: BlockDigest(SHA256Compression())
        case .sha1: BlockDigest(SHA1Compression())
        case .md5: BlockDigest(MD5Compression())
        }
    }
}
