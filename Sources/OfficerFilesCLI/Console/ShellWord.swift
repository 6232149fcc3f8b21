/// A word as a POSIX shell reads it back: as it is when it holds only safe characters, else in single quotes
/// (a quote inside as `'\''`). Suggested commands are built from these, so they work exactly as printed.
enum ShellWord {
    static func quoted(_ word: String) -> String {
        let safe = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_@%+=:,./-")
        if !word.isEmpty, word.allSatisfy({ safe.contains($0) }) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
