/// A word as a POSIX shell reads it back: as it is when it holds only safe characters, else in single quotes
/// (a quote inside as `'\''`), and a word with a control character in bash's `$'…'` (`\n`, `\t`, `\xHH`), so
/// the line shows no raw control byte. Suggested commands and queued changes are built from these, so they work
/// exactly as printed.
package enum ShellWord {
    /// `word` quoted for a shell.
    package static func quoted(_ word: String) -> String {
        let safe = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_@%+=:,./-")
        if !word.isEmpty, word.allSatisfy({ safe.contains($0) }) { return word }
        guard word.unicodeScalars.contains(where: { TerminalText.needsEscape($0, .name) }) else {
            return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        var quoted = "$'"
        for scalar in word.unicodeScalars {
            switch scalar {
            case "\n": quoted += "\\n"
            case "\t": quoted += "\\t"
            case "\r": quoted += "\\r"
            case "'": quoted += "\\'"
            case "\\": quoted += "\\\\"
            case _ where TerminalText.needsEscape(scalar, .name):
                // bash reads \xHH as one byte: a scalar beyond one byte goes as its UTF-8 bytes.
                for byte in String(scalar).utf8 {
                    let hex = String(byte, radix: 16)
                    quoted += "\\x" + (hex.count == 1 ? "0" : "") + hex
                }
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "'"
    }
}
