import Foundation
import HTTP

/// Incremental SHA-256 (or SHA-1, for tus chunk checksums) through libcrypto, hardware-accelerated
/// where the CPU has SHA extensions.
public final class SHA256Hasher {
    private let context: OpaquePointer

    /// A fresh SHA-256 hasher; `sha1` gives SHA-1 instead.
    public init(sha1: Bool = false) {
        guard let context = CryptoCalls.newContext(),
            sha1 ? CryptoCalls.initSHA1(context) : CryptoCalls.initSHA256(context)
        else {
            fatalError("libcrypto could not set up a digest")  // only on allocation failure
        }
        self.context = context
    }

    deinit { CryptoCalls.freeContext(context) }

    /// Adds bytes.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        _ = CryptoCalls.update(context, bytes)
    }

    /// Adds bytes.
    public func update(_ data: Data) { data.withUnsafeBytes { update($0) } }

    /// The raw digest; the hasher must not be used afterwards.
    public func finalize() -> [UInt8] { CryptoCalls.final(context) ?? [] }

    /// The digest as lowercase hex; the hasher must not be used afterwards.
    public func finalizeHex() -> String {
        finalize().map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// The SHA-256 of bytes in memory.
    public static func digest(_ bytes: [UInt8]) -> [UInt8] {
        let hasher = SHA256Hasher()
        bytes.withUnsafeBytes { hasher.update($0) }
        return hasher.finalize()
    }

    /// SHA-256 of a whole file.
    public static func hash(file path: String) throws(HTTPError) -> String {
        let hasher = SHA256Hasher()
        try hasher.update(file: path, offset: 0, length: nil)
        return hasher.finalizeHex()
    }

    /// Adds `length` bytes of a file from `offset` (to its end when nil), read in 256 KiB blocks.
    public func update(file path: String, offset: Int64, length: Int64?) throws(HTTPError) {
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
