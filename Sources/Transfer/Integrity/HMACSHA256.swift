import Foundation

/// HMAC-SHA256 (RFC 2104) over the installed SHA-256: what request signing for object stores is made of.
package enum HMACSHA256 {
    /// The 32-byte MAC of `data` under `key`.
    package static func mac(key: [UInt8], data: [UInt8]) -> [UInt8] {
        let blockSize = 64
        var block = key.count > blockSize ? SHA256Hasher.digest(key) : key
        block += [UInt8](repeating: 0, count: blockSize - block.count)
        let inner = SHA256Hasher()
        (block.map { $0 ^ 0x36 } + data).withUnsafeBytes { inner.update($0) }
        let outer = SHA256Hasher()
        (block.map { $0 ^ 0x5c } + inner.finalize()).withUnsafeBytes { outer.update($0) }
        return outer.finalize()
    }

    /// The MAC of a string's UTF-8 bytes.
    package static func mac(key: [UInt8], _ text: String) -> [UInt8] { mac(key: key, data: Array(text.utf8)) }
}
