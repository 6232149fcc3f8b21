extension GlobPattern {
    /// Whether `name` holds an unescaped `*`, `?` or `[` — a pattern to expand rather than a name.
    package static func hasWildcards(_ name: String) -> Bool {
        var escaped = false
        for character in name {
            if escaped {
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "*" || character == "?" || character == "[" {
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
