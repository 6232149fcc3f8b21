import FileModel
import HTTP
import Officer
import Transfer

/// `stat`: everything the server says of one entry.
enum StatCommand: Command {
    static let spec = CommandSpec(
        "stat", summary: "show one remote file or folder",
        positionals: [PositionalSpec("PATH", help: "remote path (officer:/path or NAME:bucket/path)", variadic: true)])

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        if let paths = try context.objectPaths(parsed.positionals) { return try await ObjectStoreCommands.stat(paths, context) }
        let files = try context.files()
        for argument in parsed.positionals {
            let target = try context.remotePath(argument)
            let entry = try await files.stat(target)
            if context.global.json {
                context.printJSON(entry)
                continue
            }
            let lines = [
                "    Path: \(target)",
                "    Type: \(entry.type.rawValue)",
                "    Size: \(entry.size) (\(ByteCountFormat.string(entry.size)))",
                "    Mode: \(EntryFormatter.modeString(entry)) (\(String(entry.mode ?? 0, radix: 8)))",
                "Modified: \(EntryFormatter.date(entry.mtime)) UTC (\(entry.mtime))",
                "    MIME: \(entry.mime ?? "-")",
            ]
            context.console.print(lines.joined(separator: "\n"))
        }
    }
}
