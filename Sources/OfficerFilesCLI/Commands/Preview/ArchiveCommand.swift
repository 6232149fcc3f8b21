import FileModel
import Foundation
import Officer
import Preview

/// `archive ls` and `archive cat`: look inside archives without extracting them.
enum ArchiveCommand: Command {
    static let spec = CommandSpec(
        "archive", summary: "list archives and read single members, with a safety report",
        subcommands: [
            CommandSpec(
                "ls", summary: "list members, totals and risks (traversal, links out, bombs, encryption)",
                positionals: [
                    PositionalSpec(
                        "FILE",
                        help:
                            "zip, tar(.gz/.bz2/.xz/.zst), 7z, rar, iso, cpio, … (local, officer:/path or an http(s) URL, read by ranges)"
                    )
                ]),
            CommandSpec(
                "cat", summary: "write one member to stdout",
                options: [
                    OptionSpec(
                        ["--max-size"], .value(placeholder: "SIZE"),
                        help: "refuse members larger than SIZE (default 1G)")
                ],
                positionals: [
                    PositionalSpec("FILE", help: "the archive (local, officer:/path or an http(s) URL)"),
                    PositionalSpec("ENTRY", help: "the member's path"),
                ]),
        ])

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        let file = parsed.positionals[0]
        let files = try context.files()
        // A remote archive is read by ranges (a zip's directory, one member's bytes, nothing more), or from the
        // cache's current copy.
        let location = try context.location(file)
        if try files.fixedFeatures(of: location).contains(.cached) { try context.announceCache(files) }
        if parsed.path.last == "cat" {
            var limit: Int64 = 1 << 30
            if let text = parsed.value("max-size") {
                guard let value = ByteCountFormat.parse(text), value > 0 else {
                    throw ArgumentError.invalidValue(
                        option: parsed.spelling("max-size"), value: text, reason: "a size such as 10M")
                }
                limit = value
            }
            let console = context.console
            try await files.readArchiveMember(parsed.positionals[1], of: location, limit: limit) {
                console.writeOutput(Data($0))
            }
            console.finishOutput()
            return
        }
        let inspection = try await files.inspectArchive(location)
        if context.global.json {
            context.printJSON(ArchiveRecord(inspection, path: context.shownLocation(file)))
            return
        }
        let width = inspection.members.map { String($0.size ?? 0).count }.max() ?? 1
        // Archives repeat the same modes and times: each is formatted once.
        var modes: [Int: String] = [:]
        var dates: [Int64: String] = [:]
        var output = ""
        output.reserveCapacity(inspection.members.count * 64)
        for member in inspection.members {
            let type: Character =
                switch member.kind {
                case .directory: "d"
                case .symlink: "l"
                case .hardlink: "h"
                case .special: "c"
                case .file: "-"
                }
            let mode =
                modes[member.mode]
                ?? {
                    let text = String(
                        EntryFormatter.modeString(
                            RemoteEntry(location: .local(""), name: "", kind: .file, mode: member.mode)
                        ).dropFirst())
                    modes[member.mode] = text
                    return text
                }()
            let date =
                dates[member.mtime]
                ?? {
                    let text = EntryFormatter.date(Double(member.mtime))
                    dates[member.mtime] = text
                    return text
                }()
            let size = String(member.size ?? 0)
            output.append(type)
            output += mode
            output += "  "
            if size.count < width { output += String(repeating: " ", count: width - size.count) }
            output += size
            output += "  "
            output += date
            output += "  "
            // One member a line: a tab or line break in a name is escaped, as its warnings write it.
            output += TerminalText.escaped(member.path)
            if let target = member.linkTarget {
                output += (member.kind == .symlink ? " -> " : " link to ") + TerminalText.escaped(target)
            }
            if member.encrypted { output += "  (encrypted)" }
            output += "\n"
        }
        context.console.printRaw(output)
        context.console.print(
            "\(inspection.format): \(CountFormat.string(inspection.fileCount, "file")), \(CountFormat.string(inspection.directoryCount, "folder")), "
                + "\(ByteCountFormat.string(inspection.totalSize)) in \(ByteCountFormat.string(inspection.archiveSize))"
                + (inspection.archiveSize > 0 && inspection.ratio >= 1.05
                    ? " (ratio \(ByteCountFormat.fixed(inspection.ratio, decimals: 1)):1)" : ""))
        for warning in inspection.warnings {
            context.console.message(
                "warning: \(warning.kind.rawValue): " + (warning.entry.map { "\($0): " } ?? "") + warning.detail)
        }
    }
}
