import Foundation

/// The hidden names this tool writes files under before they take their own (`.notes.md.officer-download` beside
/// `notes.md`, `.a.jpg.officer-sync`): the one rule that keeps them out of what a user is told.
package enum TemporaryNames {
    /// The suffixes of the temp names, each after a leading `.` and the file's own name.
    package static let suffixes = [".officer-download", ".officer-sync"]

    /// The longest file name in bytes, on Linux's file systems and Apple's alike.
    package static let nameLimit = 255

    /// The path of a temp file beside `path` in its folder: `.NAME` + `suffix` (`hidden`), else `NAME` + `suffix`.
    /// A name too long to take the suffix within ``nameLimit`` bytes keeps its start, then `~` and a hash of the
    /// whole name: any name a file can have gets a temp beside it, and the same name the same temp (a rerun finds
    /// the bytes an interrupted one left).
    package static func path(beside path: String, suffix: String, hidden: Bool = true) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        let name = self.name(for: (path as NSString).lastPathComponent, suffix: suffix, hidden: hidden)
        return (folder.isEmpty ? "" : folder == "/" ? "/" : folder + "/") + name
    }

    /// The temp name for a file named `name` (``path(beside:suffix:hidden:)``).
    package static func name(for name: String, suffix: String, hidden: Bool = true) -> String {
        let lead = hidden ? "." : ""
        let whole = lead + name + suffix
        guard whole.utf8.count > nameLimit else { return whole }
        let mark = "~" + String(fnv1a(name), radix: 16)
        let room = nameLimit - lead.utf8.count - mark.utf8.count - suffix.utf8.count
        var kept = ""
        for scalar in name.unicodeScalars {
            guard kept.utf8.count + String(scalar).utf8.count <= room else { break }
            kept.unicodeScalars.append(scalar)
        }
        return lead + kept + mark + suffix
    }

    /// FNV-1a, 64 bits: stable across runs and platforms (Swift's own hash is seeded per process).
    private static func fnv1a(_ text: String) -> UInt64 {
        text.utf8.reduce(0xcbf2_9ce4_8422_2325) { hash, byte in (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    }

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
