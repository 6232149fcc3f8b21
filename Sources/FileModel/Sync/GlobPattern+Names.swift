extension GlobPattern {
    /// Whether `name` holds an unescaped `*`, `?` or `[` — a pattern to expand rather than a name.
    package static func hasWildcards<Name: StringProtocol>(_ name: Name) -> Bool {
        // By byte: the three wildcards and the backslash are ASCII, and no byte of another character is one.
        var escaped = false
        for byte in name.utf8 {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "*") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "[") {
                return true
            }
        }
        return false
    }

    /// Whether the pattern (one name, no `/`) matches `name`. A leading dot is matched only by a pattern that
    /// starts with one, as shells do: `*` does not pick up hidden files.
    package func matches(name: String) -> Bool {
        if name.hasPrefix("."), !description.hasPrefix(".") { return false }
        return matches(SyncPath([name]), isDirectory: false)
    }
}
