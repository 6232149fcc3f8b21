import FileModel
import Foundation
import HTTP
import Platform

/// Incremental SHA-256 (or SHA-1 for tus chunk checksums, MD5 for S3's `Content-MD5` and ETags) through the
/// installed ``Hashing`` (OpenSSL's, hardware-accelerated, in the CLI; the portable Swift digests otherwise).
package final class SHA256Hasher {
    /// The digests offered.
    package typealias Algorithm = DigestAlgorithm

    /// The digests every hasher uses: the portable ones unless a plug-in was installed.
    package static let hashing = PluginSlot<any Hashing>(PortableHashing())

    private let context: any DigestContext

    /// A fresh SHA-256 hasher; `sha1` gives SHA-1 instead.
    package convenience init(sha1: Bool = false) { self.init(algorithm: sha1 ? .sha1 : .sha256) }

    /// A fresh hasher for `algorithm`.
    package init(algorithm: Algorithm) {
        context = Self.hashing.value.makeDigest(algorithm)
    }

    /// Adds bytes.
    package func update(_ bytes: UnsafeRawBufferPointer) { context.update(bytes) }

    /// Adds bytes.
    package func update(_ data: Data) { data.withUnsafeBytes { update($0) } }

    /// The raw digest; the hasher must not be used afterwards.
    package func finalize() -> [UInt8] { context.finalize() }

    /// The digest as lowercase hex; the hasher must not be used afterwards.
    package func finalizeHex() -> String {
        HexDigits.lowercase(finalize())
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
        let file: OpenFile
        do { file = try OpenFile(path, O_RDONLY) } catch { throw .localFile(path: path, message: "\(error)") }
        let fd = file.descriptor
        defer { withExtendedLifetime(file) {} }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 << 10, alignment: 16)
        defer { buffer.deallocate() }
        var position = offset
        var remaining = length ?? Int64.max
        while remaining > 0 {
            let count = SystemCalls.retryingInterrupts {
                pread(fd, buffer.baseAddress, Int(min(Int64(buffer.count), remaining)), off_t(position))
            }
            if count == 0 { break }
            if count < 0 { throw .localFile(path: path, message: String(cString: strerror(errno))) }
            update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            position += Int64(count)
            remaining -= Int64(count)
        }
        if length != nil, remaining > 0 { throw .localFile(path: path, message: "file shrank while being read") }
    }
}
