import FileModel
import Foundation
import HTTP

/// Text forms of entries for `ls`, `stat` and `search`, the same for every remote.
enum EntryFormatter {
    /// `drwxr-xr-x` style type and permission bits (a remote without modes shows the usual ones).
    static func modeString(_ entry: RemoteEntry) -> String {
        let type: Character =
            switch entry.kind {
            case .directory, .bucket: "d"
            case .symlink: "l"
            case .file: "-"
            }
        return modeString(entry.mode ?? (entry.isFolder ? 0o755 : 0o644), type: type)
    }

    /// `-rw-r--r-- (644)`: how `stat` and `info` both show permission bits.
    static func modeLine(_ mode: Int, type: Character) -> String {
        "\(modeString(mode, type: type)) (\(String(mode, radix: 8)))"
    }

    /// `-rw-r--r--` for `mode` and the entry's `type` letter.
    static func modeString(_ mode: Int, type: Character) -> String {
        let letters: [Character] = ["r", "w", "x"]
        var text = String(type)
        for shift in stride(from: 6, through: 0, by: -3) {
            for bit in 0..<3 { text.append((mode >> (shift + 2 - bit)) & 1 == 1 ? letters[bit] : "-") }
        }
        return text
    }

    /// `2026-11-29 16:02 UTC` (``TimeStamp``; no DateFormatter: listings print thousands).
    static func date(_ mtime: Double) -> String { TimeStamp.shown(mtime) }

    /// The short form: the name (control characters escaped, line breaks too), with `/` after folders.
    static func short(_ entry: RemoteEntry, name: String? = nil) -> String {
        TerminalText.escaped(name ?? entry.name) + (entry.isFolder ? "/" : "")
    }

    /// The long form: mode (where the remote keeps modes), size, date, name; sizes right-aligned to `sizeWidth`.
    static func long(_ entry: RemoteEntry, sizeWidth: Int, name: String? = nil) -> String {
        let size = String(entry.size)
        let mode = entry.mode != nil ? modeString(entry) + "  " : ""
        return mode + String(repeating: " ", count: max(0, sizeWidth - size.count)) + size + "  "
            + (entry.mtime.map(date) ?? String(repeating: " ", count: 16)) + "  " + short(entry, name: name)
    }

    /// `stat`'s lines: what the remote says of one entry, each field it has.
    static func details(_ entry: RemoteEntry) -> String {
        // "folder" as everywhere else (a bucket stays a bucket).
        var lines = [
            "    Path: \(entry.location)", "    Type: \(entry.kind == .directory ? "folder" : entry.kind.rawValue)",
        ]
        if !entry.isFolder || entry.size > 0 {
            lines.append("    Size: \(entry.size) (\(ByteCountFormat.string(entry.size)))")
        }
        if let mode = entry.mode { lines.append("    Mode: \(modeString(entry)) (\(String(mode, radix: 8)))") }
        if let mtime = entry.mtime { lines.append("Modified: \(date(mtime)) (\(TimeStamp.json(mtime)))") }
        if let etag = entry.etag { lines.append("    ETag: \(etag)") }
        if let sha256 = entry.sha256 { lines.append("  SHA256: \(sha256)") }
        if !entry.isFolder { lines.append("    MIME: \(entry.mime ?? "-")") }
        return lines.joined(separator: "\n")
    }
}
