/// Where digests come from: the portable Swift implementations unless a plug-in is given (an Apple app's
/// CryptoKit, in its front door's configuration; the CLI and Linux apps install OpenSSL's, hardware-accelerated).
public protocol Hashing: Sendable {
    /// The library behind the digests, for `--version`.
    var name: String { get }
    /// A fresh digest of `algorithm`.
    func makeDigest(_ algorithm: DigestAlgorithm) -> any DigestContext
}

/// One digest being computed: bytes in, the digest out once.
public protocol DigestContext: AnyObject {
    /// Adds bytes.
    func update(_ bytes: UnsafeRawBufferPointer)
    /// The digest; the context is not used afterwards.
    func finalize() -> [UInt8]
}
