import Foundation

/// HMAC-SHA256 (RFC 2104) through libcrypto: what request signing for object stores is made of.
package enum HMACSHA256 {
    /// The 32-byte MAC of `data` under `key`.
    package static func mac(key: [UInt8], data: [UInt8]) -> [UInt8] {
        data.withUnsafeBytes { CryptoCalls.hmacSHA256(key: key, data: $0) } ?? []
    }

    /// The MAC of a string's UTF-8 bytes.
    package static func mac(key: [UInt8], _ text: String) -> [UInt8] { mac(key: key, data: Array(text.utf8)) }
}
