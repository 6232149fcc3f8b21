import Foundation

/// The hidden names this tool writes files under before they take their own (`.notes.md.officer-download` beside
/// `notes.md`, `.a.jpg.officer-sync`): the one rule that keeps them out of what a user is told.
package enum TemporaryNames {
    /// The suffixes of the temp names, each after a leading `.` and the file's own name.
    package static let suffixes = [".officer-download", ".officer-sync"]

    /// `text` with every temp name in it given back as the name it stands for (`/proc/.notes.md.officer-download`
    /// → `/proc/notes.md`; a temp of a temp, `..x.officer-sync.officer-download`, → `x`).
    package static func shown(_ text: String) -> String {
        guard suffixes.contains(where: text.contains) else { return text }
        var result = text
        for suffix in suffixes + suffixes {
            // A name: after a `/`, a space or the start; a `.`, the real name (no `/`, no `:`), the suffix.
            let pattern = "(^|[/\\s])\\.([^/:]+?)" + NSRegularExpression.escapedPattern(for: suffix)
            guard let expression = try? NSRegularExpression(pattern: pattern) else { continue }
            result = expression.stringByReplacingMatches(
                in: result, range: NSRange(result.startIndex..., in: result), withTemplate: "$1$2")
        }
        return result
    }
}
