import Foundation

/// Local paths as the user typed them. The library works on absolute paths and names them so in what it says;
/// a message of this run shows each as it was written on the command line instead (`ro/empty.txt: permission
/// denied`, not `/home/ann/ro/empty.txt: permission denied`), as the README promises: the file, path or server
/// as you wrote it.
package struct TypedPaths: Sendable {
    private struct Pair: Sendable {
        var absolute: String
        var typed: String
        var pattern: NSRegularExpression
    }

    private var pairs: [Pair] = []

    /// None: every message as the library said it.
    package init() {}

    /// The relative local paths among `arguments` (positionals and option values), from `currentDirectory`.
    /// Remote paths (`officer:/x`, `s3:bucket/x`), URLs, `-` and absolute paths are left as they are.
    package init(arguments: [String], currentDirectory: String) {
        var seen: Set<String> = []
        // `nodir/x.txt` typed: its folder `nodir` too, which a message may name alone.
        let typedPaths = arguments.filter(Self.isRelativeLocal).flatMap(Self.withFolders)
        for typed in typedPaths {
            let absolute = URL(fileURLWithPath: typed, relativeTo: URL(fileURLWithPath: currentDirectory + "/"))
                .standardizedFileURL.path
            guard absolute != "/", seen.insert(absolute).inserted else { continue }
            // A path begins after the start, a space, a bracket or a quote (never after `officer:`), and ends
            // where a name cannot go on: the end, a `/`, a `:`, a space, a bracket, a comma or a quote.
            let source = "(?<=^|[\\s('\"])" + NSRegularExpression.escapedPattern(for: absolute) + "(?=$|[/:\\s),;'\"])"
            guard let pattern = try? NSRegularExpression(pattern: source) else { continue }
            pairs.append(Pair(absolute: absolute, typed: typed, pattern: pattern))
        }
        // The longest first: `/home/ann/a/b` is `b` typed as itself before `/home/ann/a` is `a`.
        pairs.sort { $0.absolute.count > $1.absolute.count }
    }

    /// `text` with each typed path's absolute form given back as typed.
    package func shown(_ text: String) -> String {
        var result = text
        for pair in pairs where result.contains(pair.absolute) {
            result = pair.pattern.stringByReplacingMatches(
                in: result, range: NSRange(result.startIndex..., in: result),
                withTemplate: NSRegularExpression.escapedTemplate(for: pair.typed))
        }
        return result
    }

    /// `a/b/c` and the folders it names on the way: `a/b`, `a` (no trailing `/`; `.` and `./` stay as typed).
    static func withFolders(_ typed: String) -> [String] {
        var path = typed
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        var paths = [path]
        while let cut = path.lastIndex(of: "/"), cut != path.startIndex {
            path = String(path[..<cut])
            while path.count > 1, path.hasSuffix("/") { path.removeLast() }
            paths.append(path)
        }
        return paths
    }

    /// A path on this machine written relative to the current folder: not empty, not `-` (stdin or stdout), not
    /// absolute, not a URL or a remote's `NAME:` path (a local name with a `:` before its first `/` is taken
    /// for one, as the commands take it).
    static func isRelativeLocal(_ argument: String) -> Bool {
        guard !argument.isEmpty, argument != "-", !argument.hasPrefix("/"), !argument.hasPrefix("~") else {
            return false
        }
        let head = argument.prefix { $0 != "/" }
        return !head.contains(":")
    }
}
