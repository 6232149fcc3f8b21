import FileModel
import Foundation
import HTTP
import Officer
import Transfer

/// `search`: entries whose names contain a text.
enum SearchCommand: Command {
    static let spec = CommandSpec(
        "search", summary: "find remote files by name (case-insensitive)",
        options: [OptionSpec(["--long", "-l"], help: "mode, size, modification time and path")],
        positionals: [
            PositionalSpec("QUERY", help: "text the name contains"),
            PositionalSpec(
                "PATH", help: "folder to search: officer:/path or NAME:/path (default: officer:/)", optional: true),
        ])

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        let files = try context.files()
        let query = parsed.positionals[0]
        guard !query.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw CLIError.usage("'search' needs a non-empty QUERY")
        }
        let folder = try context.location(parsed.positionals.count > 1 ? parsed.positionals[1] : "/", plain: .officer)
        let response = try await files.search(query, in: folder)
        if context.global.json {
            for entry in response.results { context.printJSON(EntryRecord(entry)) }
        } else {
            let width = response.results.map { String($0.size).count }.max() ?? 1
            for entry in response.results {
                context.console.print(
                    parsed.flag("long")
                        ? EntryFormatter.long(entry, sizeWidth: width, name: entry.location.description)
                        : EntryFormatter.short(entry, name: entry.location.description))
            }
        }
        if response.truncated, !context.global.quiet {
            context.console.message(
                "warning: the server stopped at \(response.results.count) results; narrow the query or the folder")
        }
    }
}
