import Foundation
import HTTP

/// Incremental SHA-256 (or SHA-1 for tus chunk checksums, MD5 for S3's `Content-MD5` and ETags) through
/// libcrypto, hardware-accelerated where the CPU has SHA extensions.
package final class SHA256Hasher {
    /// The digests offered.
    package enum Algorithm: Sendable {
        /// SHA-256, the default.
        case sha256
        /// SHA-1 (tus checksums).
        case sha1
        /// MD5 (what S3 compares `Content-MD5` and part ETags with; never a security check).
        case md5
    }

    private let context: OpaquePointer

    /// A fresh SHA-256 hasher; `sha1` gives SHA-1 instead.
    package convenience init(sha1: Bool = false) { self.init(algorithm: sha1 ? .sha1 : .sha256) }

    /// A fresh hasher for `algorithm`.
    package init(algorithm: Algorithm) {
        guard let context = CryptoCalls.newContext(), Self.start(context, algorithm) else {
            fatalError("libcrypto could not set up a digest")  // only on allocation failure
        }
        self.context = context
    }

    private static func start(_ context: OpaquePointer, _ algorithm: Algorithm) -> Bool {
        switch algorithm {
        case .sha256: CryptoCalls.initSHA256(context)
        case .sha1: CryptoCalls.initSHA1(context)
        case .md5: CryptoCalls.initMD5(context)
        }
    }

    deinit { CryptoCalls.freeContext(context) }

    /// Adds bytes.
    package func update(_ bytes: UnsafeRawBufferPointer) {
        _ = CryptoCalls.update(context, bytes)
    }

    /// Adds bytes.
    package func update(_ data: Data) { data.withUnsafeBytes { update($0) } }

    /// The raw digest; the hasher must not be used afterwards.
    package func finalize() -> [UInt8] { CryptoCalls.final(context) ?? [] }

    /// The digest as lowercase hex; the hasher must not be used afterwards.
    package func finalizeHex() -> String {
        finalize().map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// The SHA-256 of bytes in memory.
    package static func digest(_ bytes: [UInt8]) -> [UInt8] {
        let hasher = SHA256Hasher()
        bytes.withUnsafeBytes { hasher.update($0) }
        return hasher.finalize()
    }

    /// SHA-256 of a whole file.
    package static func hash(file path: String) throws(HTTPError) -> String {
        let hasher = SHA256Hasher()
        try hasher.update(file: path, offset: 0, length: nil)
        return hasher.finalizeHex()
    }

    /// Adds `length` bytes of a file from `offset` (to its end when nil), read in 256 KiB blocks.
    package func update(file path: String, offset: Int64, length: Int64?) throws(HTTPError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .localFile(path: path, message: String(cString: strerror(errno))) }
        defer { close(fd) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 << 10, alignment: 16)
        defer { buffer.deallocate() }
        var position = offset
        var remaining = length ?? Int64.max
        while remaining > 0 {
            let count = pread(fd, buffer.baseAddress, Int(min(Int64(buffer.count), remaining)), off_t(position))
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw .localFile(path: path, message: String(cString: strerror(errno)))
            }
            update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            position += Int64(count)
            remaining -= Int64(count)
        }
        if length != nil, remaining > 0 { throw .localFile(path: path, message: "file shrank while being read") }
    }
}
