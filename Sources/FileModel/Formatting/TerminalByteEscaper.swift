/// ``TerminalText``'s rule for a stream of bytes (a file shown on a terminal): control characters and
/// bidirectional formatting become visible escapes, line breaks and tabs stay, and bytes that are not UTF-8
/// show as `\xNN` — a lone 0x9B is a CSI to some terminals. A character split across two chunks is held until
/// the rest comes.
package struct TerminalByteEscaper: Sendable {
    private var held: [UInt8] = []

    /// An escaper with nothing held.
    package init() {}

    /// The printable form of `bytes`, after what an earlier chunk left unfinished.
    package mutating func escape(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var input = held
        input.append(contentsOf: bytes)
        held = []
        var output: [UInt8] = []
        output.reserveCapacity(input.count + 16)
        var index = 0
        while index < input.count {
            let lead = input[index]
            if lead < 0x80 {
                if lead == 0x0A || lead == 0x09 || (lead >= 0x20 && lead != 0x7F) {
                    output.append(lead)
                } else {
                    output += Self.escaped(scalar: UInt32(lead))
                }
                index += 1
                continue
            }
            let length = Self.sequenceLength(lead)
            guard length > 1 else {
                output += Self.escaped(byte: lead)
                index += 1
                continue
            }
            if index + length > input.count {
                // Perhaps the rest is in the next chunk: hold the start if it is a valid one so far.
                if Self.validPrefix(input[index...]) {
                    held = Array(input[index...])
                    break
                }
                output += Self.escaped(byte: lead)
                index += 1
                continue
            }
            let sequence = input[index..<index + length]
            guard let scalar = Self.decode(sequence) else {
                output += Self.escaped(byte: lead)
                index += 1
                continue
            }
            if TerminalText.needsEscape(scalar, .block) {
                output += Self.escaped(scalar: scalar.value)
            } else {
                output.append(contentsOf: sequence)
            }
            index += length
        }
        return output
    }

    /// What is still held at the end of the stream, escaped: a character that never finished.
    package mutating func finish() -> [UInt8] {
        defer { held = [] }
        return held.flatMap { Self.escaped(byte: $0) }
    }

    private static func sequenceLength(_ lead: UInt8) -> Int {
        switch lead {
        case 0xC2...0xDF: 2
        case 0xE0...0xEF: 3
        case 0xF0...0xF4: 4
        default: 1
        }
    }

    private static func validPrefix(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.dropFirst().allSatisfy { $0 & 0xC0 == 0x80 }
    }

    private static func decode(_ bytes: ArraySlice<UInt8>) -> Unicode.Scalar? {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return nil }
        // The decoder read exactly this sequence only if its encoded length matches.
        return UTF8.width(scalar) == bytes.count ? scalar : nil
    }

    private static func escaped(scalar value: UInt32) -> [UInt8] {
        switch value {
        case 0x0D: return Array("\\r".utf8)
        default:
            let hex = String(value, radix: 16)
            return Array(("\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex).utf8)
        }
    }

    private static func escaped(byte: UInt8) -> [UInt8] {
        let hex = String(byte, radix: 16)
        return Array(("\\x" + (hex.count < 2 ? "0" : "") + hex).utf8)
    }
}

extension TerminalText {
    /// A name as the file system holds it, on one line: bytes that are not UTF-8 as `\xNN` (`caf\xe9.txt`),
    /// everything else as ``escaped(_:_:)`` shows a name.
    package static func escaped(bytes: some Collection<UInt8>) -> String {
        var escaper = TerminalByteEscaper()
        var shown = escaper.escape(bytes)
        shown += escaper.finish()
        return escaped(String(decoding: shown, as: UTF8.self))
    }
}
