/// Bytes as hex text with no formatter behind it: digests and signatures are written for every request of a
/// sync (`String(format:)` per byte cost a listing's worth of CPU on a pull of 300 small objects).
package enum HexDigits {
    private static let lower = Array("0123456789abcdef".utf8)
    private static let upper = Array("0123456789ABCDEF".utf8)

    /// Two lowercase hex digits a byte.
    package static func lowercase(_ bytes: some Sequence<UInt8>) -> String { text(bytes, digits: lower) }

    /// Two uppercase hex digits a byte (percent-encoding's form).
    package static func uppercase(_ bytes: some Sequence<UInt8>) -> String { text(bytes, digits: upper) }

    private static func text(_ bytes: some Sequence<UInt8>, digits: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
