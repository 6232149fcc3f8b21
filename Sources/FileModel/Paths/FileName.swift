/// The one rule for a single file or folder name, in both directions: what the tool uploads, creates on the
/// server, and writes locally from a server's listing.
///
/// Refused: an empty name, `.` and `..`, `/`, NUL, control characters (C0 and DEL: a newline or an escape
/// sequence in a name breaks listings, scripts and terminals) and names over 255 bytes. Everything else a Linux
/// file system allows is accepted, a backslash included, so a name the tool uploaded can always be listed,
/// fetched, moved, removed and pulled back.
public enum FileName {
    /// The longest name in bytes (Linux's NAME_MAX).
    public static let maxBytes = 255

    /// Why `name` is not a usable name, or nil when it is.
    public static func problem(_ name: String) -> String? {
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

    /// Whether `name` passes ``problem(_:)``.
    public static func isValid(_ name: String) -> Bool { problem(name) == nil }

    /// The name a downloaded copy of `location` gets by default: its own name when it passes the rule (so it
    /// stays inside the destination folder whatever the server or URL said), else `fallback`.
    public static func savedName(of location: Location, fallback: String) -> String {
        let name = location.name
        return isValid(name) ? name : fallback
    }
}
