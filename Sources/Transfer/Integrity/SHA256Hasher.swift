import Foundation

/// Incremental SHA-256 through libcrypto (hardware-accelerated where the CPU has SHA extensions).
public final class SHA256Hasher {
    private let context: OpaquePointer

    /// A fresh hasher.
    public init() {
        guard let context = CryptoCalls.newContext(), CryptoCalls.initSHA256(context) else {
            fatalError("libcrypto could not set up SHA-256")  // only on allocation failure
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

    /// The digest as lowercase hex; the hasher must not be used afterwards.
    public func finalizeHex() -> String {
        (CryptoCalls.final(context) ?? []).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// SHA-256 of a whole file, read in 1 MiB blocks.
    public static func hash(file path: String) throws(HTTPError) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .localFile(path: path, message: String(cString: strerror(errno))) }
        defer { close(fd) }
        let hasher = SHA256Hasher()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(fd, buffer.baseAddress, buffer.count)
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw .localFile(path: path, message: String(cString: strerror(errno)))
            }
            hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
        return hasher.finalizeHex()
    }
}
