/// A shell-style pattern over a relative path: `*` and `?` within one name, `**` across names, `[abc]` and
/// `[!a-z]` classes, `\` escapes. Without a `/` the pattern matches a name at any depth; a leading `/` anchors
/// it at the sync root; a trailing `/` makes it match folders only.
package struct GlobPattern: Sendable, Equatable, CustomStringConvertible {
    /// The pattern as written.
    package let description: String
    private let pattern: [Character]
    private let anchored: Bool
    private let matchesNameOnly: Bool
    /// Matches only folders.
    package let directoriesOnly: Bool

    /// Parses a pattern; nil for an empty one.
    package init?(_ text: String) {
        var body = Substring(text)
        guard !body.isEmpty else { return nil }
        description = text
        directoriesOnly = body.hasSuffix("/")
        if directoriesOnly { body = body.dropLast() }
        anchored = body.hasPrefix("/")
        if anchored { body = body.dropFirst() }
        guard !body.isEmpty else { return nil }
        matchesNameOnly = !anchored && !body.contains("/")
        pattern = Array(body)
    }

    /// Whether the pattern matches the item at `path`.
    package func matches(_ path: SyncPath, isDirectory: Bool) -> Bool {
        if directoriesOnly, !isDirectory { return false }
        if matchesNameOnly { return Self.match(pattern[...], Array(path.name)[...]) }
        let text = Array(path.description)
        if anchored { return Self.match(pattern[...], text[...]) }
        // Unanchored with a '/': it may start at any folder boundary.
        if Self.match(pattern[...], text[...]) { return true }
        for index in text.indices where text[index] == "/" {
            if Self.match(pattern[...], text[(index + 1)...]) { return true }
        }
        return false
    }

    private static func match(_ pattern: ArraySlice<Character>, _ text: ArraySlice<Character>) -> Bool {
        var p = pattern.startIndex
        var t = text.startIndex
        while p < pattern.endIndex {
            let c = pattern[p]
            if c == "*" {
                let doubled = p + 1 < pattern.endIndex && pattern[p + 1] == "*"
                let rest = pattern[(p + (doubled ? 2 : 1))...]
                // `**/` also matches no folder at all.
                if doubled, rest.first == "/", match(rest.dropFirst(), text[t...]) { return true }
                var end = t
                while true {
                    if match(rest, text[end...]) { return true }
                    guard end < text.endIndex, doubled || text[end] != "/" else { return false }
                    end += 1
                }
            }
            guard t < text.endIndex else { return false }
            switch c {
            case "?":
                guard text[t] != "/" else { return false }
            case "[":
                guard let (matched, next) = matchClass(pattern, from: p, text[t]), matched else { return false }
                p = next
                t += 1
                continue
            case "\\" where p + 1 < pattern.endIndex:
                p += 1
                guard pattern[p] == text[t] else { return false }
            default:
                guard c == text[t] else { return false }
            }
            p += 1
            t += 1
        }
        return t == text.endIndex
    }

    /// `[...]` at `start`: whether `character` is in it, and the index after the `]`; nil when unterminated.
    private static func matchClass(_ pattern: ArraySlice<Character>, from start: Int, _ character: Character) -> (
        Bool, Int
    )? {
        var index = start + 1
        var negated = false
        if index < pattern.endIndex, pattern[index] == "!" || pattern[index] == "^" {
            negated = true
            index += 1
        }
        var matched = false
        var first = true
        while index < pattern.endIndex, pattern[index] != "]" || first {
            first = false
            let low = pattern[index]
            if index + 2 < pattern.endIndex, pattern[index + 1] == "-", pattern[index + 2] != "]" {
                if low <= character && character <= pattern[index + 2] { matched = true }
                index += 3
            } else {
                if low == character { matched = true }
                index += 1
            }
        }
        guard index < pattern.endIndex else { return nil }
        return (matched != negated && character != "/", index + 1)
    }
}

/// Include and exclude rules, tried in the order given; the first that matches decides, and what no rule
/// matches is included. An excluded folder is not descended into.
package struct SyncFilter: Sendable, Equatable {
    /// One rule.
    package struct Rule: Sendable, Equatable {
        /// Include (`true`) or exclude.
        package var include: Bool
        /// Its pattern.
        package var pattern: GlobPattern
    }

    /// The rules in order.
    package var rules: [Rule] = []

    /// No rules: everything is included.
    package init() {}

    /// Adds a rule.
    package mutating func add(include: Bool, pattern: GlobPattern) {
        rules.append(Rule(include: include, pattern: pattern))
    }

    /// Whether the item at `path` takes part in the sync.
    package func includes(_ path: SyncPath, isDirectory: Bool) -> Bool {
        for rule in rules where rule.pattern.matches(path, isDirectory: isDirectory) { return rule.include }
        return true
    }
}
