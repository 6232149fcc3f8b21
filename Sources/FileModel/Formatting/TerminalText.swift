/// Text from a server or a file made safe to print: control characters become visible escapes.
///
/// A name such as `ESC ] 0 ; owned BEL` would retitle the terminal, `ESC [ 2 J` clear it, and a bidirectional
/// override reorder what follows. Escapes use JSON's `\uXXXX` form (and `\n`, `\t`, `\r`), so escaping a line of
/// JSON changes its text but never what it means: `--json` output stays exact.
package enum TerminalText {
    /// Which line structure to keep.
    package enum Mode: Sendable {
        /// Everything escaped, line breaks and tabs included: one name, one line.
        case name
        /// Line breaks and tabs kept as they are: a whole line or block of output.
        case block
    }

    /// `text` with C0 controls, DEL, C1 controls and bidirectional formatting characters escaped.
    package static func escaped(_ text: String, _ mode: Mode = .name) -> String {
        // ASCII is judged by byte (most output is; `info --json` over thousands of files writes megabytes), by the
        // one rule: only a non-ASCII byte needs the scalars decoded.
        if text.utf8.allSatisfy({ $0 < 0x80 && !needsEscape(Unicode.Scalar($0), mode) }) { return text }
        guard text.unicodeScalars.contains(where: { needsEscape($0, mode) }) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar, mode) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            }
        }
        return result
    }

    /// Whether `text` holds anything ``escaped(_:_:)`` would change in `.name` mode.
    package static func needsEscaping(_ text: String) -> Bool {
        text.unicodeScalars.contains { needsEscape($0, .name) }
    }

    /// Whether `scalar` is shown escaped in `mode`: the one rule, for strings and byte streams alike.
    package static func needsEscape(_ scalar: Unicode.Scalar, _ mode: Mode) -> Bool {
        let value = scalar.value
        if value < 0x20 { return mode == .name || (scalar != "\n" && scalar != "\t") }
        if value == 0x7F || (0x80...0x9F).contains(value) { return true }
        // Bidirectional embeddings, overrides and isolates (the "Trojan Source" characters).
        return (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
    }
}
