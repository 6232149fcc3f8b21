import FileModel
import HTTP
import Officer
import Transfer

/// `stat`: everything the server says of one entry.
enum StatCommand: Command {
    static let spec = CommandSpec(
        "stat", summary: "show one remote file or folder",
        positionals: [
            PositionalSpec("PATH", help: "remote path (officer:/path, NAME:/path or NAME:bucket/path)", variadic: true)
        ])

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        let files = try context.files()
        for argument in parsed.positionals {
            let entry = try await files.stat(try context.location(argument, plain: .officer))
            if context.global.json {
                context.printJSON(EntryRecord(entry))
            } else {
                context.console.print(EntryFormatter.details(entry))
            }
        }
    }
}
