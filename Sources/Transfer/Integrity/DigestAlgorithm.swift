/// The digests a ``Hashing`` plug-in makes.
public enum DigestAlgorithm: Sendable, Equatable {
    /// SHA-256: what every byte is checked with.
    case sha256
    /// SHA-1 (tus chunk checksums).
    case sha1
    /// MD5 (what S3 compares `Content-MD5` and part ETags with; never a security check).
    case md5
}
