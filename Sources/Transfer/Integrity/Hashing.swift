/// Where digests come from: the portable Swift implementations unless a platform plug-in was installed (the CLI
/// and Linux apps install OpenSSL's, hardware-accelerated; an Apple app could install CryptoKit's).
package protocol Hashing: Sendable {
    /// The library behind the digests, for `--version`.
    var name: String { get }
    /// A fresh digest of `algorithm`.
    func makeDigest(_ algorithm: SHA256Hasher.Algorithm) -> any DigestContext
}

/// One digest being computed: bytes in, the digest out once.
package protocol DigestContext: AnyObject {
    /// Adds bytes.
    func update(_ bytes: UnsafeRawBufferPointer)
    /// The digest; the context is not used afterwards.
    func finalize() -> [UInt8]
}
