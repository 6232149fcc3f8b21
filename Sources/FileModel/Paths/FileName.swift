/// The one rule for a single file or folder name, in both directions: what the tool uploads, creates on the
/// server, and writes locally from a server's listing.
///
/// Refused: an empty name, `.` and `..`, `/`, NUL, control characters (C0 and DEL: a newline or an escape
/// sequence in a name breaks listings, scripts and terminals) and names over 255 bytes. Everything else a Linux
/// file system allows is accepted, a backslash included, so a name the tool uploaded can always be listed,
/// fetched, moved, removed and pulled back.
package enum FileName {
    /// The longest name in bytes (Linux's NAME_MAX).
    package static let maxBytes = 255

    /// Why `name` is not a usable name, or nil when it is.
    package static func problem(_ name: String) -> String? {
        if name.isEmpty { return "an empty name" }
        if name == "." || name == ".." { return "the name '\(name)'" }
        if name.utf8.contains(0) { return "a NUL byte in the name" }
        if name.contains("/") { return "a '/' in the name" }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "a control character in the name"
        }
        if name.utf8.count > maxBytes { return "a name longer than \(maxBytes) bytes" }
        return nil
    }

    /// The last name of a path as written (`a/b*/` gives `b*`; the whole of one without `/`): `NSString`'s
    /// `lastPathComponent` without its bridging, which `info` over thousands of files paid for.
    package static func last(ofPath path: String) -> Substring {
        var trimmed = Substring(path)
        while trimmed.utf8.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard trimmed != "/" else { return trimmed }
        return trimmed.lastIndex(of: "/").map { trimmed[trimmed.index(after: $0)...] } ?? trimmed
    }

    /// Whether `name` passes ``problem(_:)``.
    package static func isValid(_ name: String) -> Bool { problem(name) == nil }

    /// Whether a multipart form's `filename` parameter carries `name` to every server exactly: a quoted string
    /// cannot hold a `"` (clients escape it as `%22`, as browsers do, and servers keep that), a `\\` is an escape
    /// that servers drop, a `%` may be decoded, and control characters are refused. A name with any of them is sent
    /// under another name and renamed.
    package static func formCarries(_ name: String) -> Bool {
        !name.unicodeScalars.contains { ["\"", "\\", "%"].contains($0) || $0.value < 0x20 || $0.value == 0x7F }
    }

    /// The problem of a local name whose bytes are not UTF-8 (a Latin-1 `caf\xe9.txt`), which no `String` and so
    /// no ``problem(_:)`` sees: names on a server are UTF-8 strings, so it can be neither sent nor matched to one.
    package static let notUTF8 = "a name that is not UTF-8"

    /// The name a downloaded copy of `location` gets by default: its own name when it passes the rule (so it
    /// stays inside the destination folder whatever the server or URL said), else `fallback`.
    package static func savedName(of location: Location, fallback: String) -> String {
        let name = location.name
        return isValid(name) ? name : fallback
    }

    /// The name a download of `location` is saved under: its own, else `index.html` for a web page's address
    /// (as a browser saves `https://host/`), else `download`.
    package static func savedName(of location: Location) -> String {
        savedName(of: location, fallback: location.isWebAddress ? "index.html" : "download")
    }
}

extension FileName {
    /// The first name in `path` (slash-separated, as a remote path's) that breaks the rule, with its problem:
    /// checked before a folder or file of that name is asked of a server, which would fail later and in its
    /// own words (a name over 255 bytes was a 500).
    package static func firstProblem(inPath path: String) -> (name: String, problem: String)? {
        for name in path.split(separator: "/", omittingEmptySubsequences: true).map(String.init) {
            if let problem = problem(name) { return (name, problem) }
        }
        return nil
    }

    /// `name` as a message shows it: quoted, whole when short, else its start and its length; control
    /// characters escaped as every printed name is (``TerminalText``), so the line that also names it as its
    /// subject shows it one way.
    package static func shown(_ name: String) -> String {
        name.utf8.count <= 64
            ? quoted(name) : "\(quoted(String(name.prefix(24))))… (\(name.utf8.count) bytes)"
    }

    /// `"text"` with control characters escaped.
    package static func quoted(_ text: String) -> String { "\"" + TerminalText.escaped(text) + "\"" }
}
