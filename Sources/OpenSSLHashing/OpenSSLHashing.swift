import Transfer

/// The digests through OpenSSL's libcrypto, hardware-accelerated where the CPU has SHA extensions: a Linux
/// plug-in for the portable core's ``Hashing``.
package struct OpenSSLHashing: Hashing {
    /// Creates the plug-in.
    package init() {}

    package var name: String { CryptoCalls.version() }

    package func makeDigest(_ algorithm: DigestAlgorithm) -> any DigestContext { OpenSSLDigest(algorithm) }
}

/// One libcrypto digest context, freed with its owner.
final class OpenSSLDigest: DigestContext {
    private let context: OpaquePointer

    init(_ algorithm: SHA256Hasher.Algorithm) {
        guard let context = CryptoCalls.newContext(), Self.start(context, algorithm) else {
            fatalError("libcrypto could not set up a digest")  // only on allocation failure
        }
        self.context = context
    }

    private static func start(_ context: OpaquePointer, _ algorithm: SHA256Hasher.Algorithm) -> Bool {
        switch algorithm {
        case .sha256: CryptoCalls.initSHA256(context)
        case .sha1: CryptoCalls.initSHA1(context)
        case .md5: CryptoCalls.initMD5(context)
        }
    }

    deinit { CryptoCalls.freeContext(context) }

    func update(_ bytes: UnsafeRawBufferPointer) { _ = CryptoCalls.update(context, bytes) }

    func finalize() -> [UInt8] { CryptoCalls.final(context) ?? [] }
}
