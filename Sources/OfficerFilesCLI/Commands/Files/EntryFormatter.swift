import FileModel
import Foundation

/// Text forms of entries for `ls`, `stat` and `search`.
enum EntryFormatter {
    /// `drwxr-xr-x` style type and permission bits.
    static func modeString(_ entry: FileEntry) -> String {
        let type: Character =
            switch entry.type {
            case .directory: "d"
            case .symlink: "l"
            case .file: "-"
            }
        let mode = entry.mode ?? (entry.isDirectory ? 0o755 : 0o644)
        let letters: [Character] = ["r", "w", "x"]
        var text = String(type)
        for shift in stride(from: 6, through: 0, by: -3) {
            for bit in 0..<3 { text.append((mode >> (shift + 2 - bit)) & 1 == 1 ? letters[bit] : "-") }
        }
        return text
    }

    /// `2026-11-29 16:02` in UTC, sortable and unambiguous (no DateFormatter: listings print thousands).
    static func date(_ mtime: Double) -> String { HTTPDate.minuteStamp(mtime) }

    /// The short form: the name (control characters escaped, line breaks too), with `/` after folders.
    static func short(_ entry: FileEntry, name: String? = nil) -> String {
        TerminalText.escaped(name ?? entry.name) + (entry.isDirectory ? "/" : "")
    }

    /// The long form: mode, size, date, name; sizes right-aligned to `sizeWidth`.
    static func long(_ entry: FileEntry, sizeWidth: Int, name: String? = nil) -> String {
        let size = String(entry.size)
        return modeString(entry) + "  " + String(repeating: " ", count: max(0, sizeWidth - size.count)) + size + "  "
            + date(entry.mtime) + "  " + short(entry, name: name)
    }
}
