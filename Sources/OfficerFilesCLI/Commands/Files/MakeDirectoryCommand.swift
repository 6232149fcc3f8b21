import FileModel
import HTTP
import Officer
import Transfer

/// `mkdir`: remote folders, with `-p` for parents.
enum MakeDirectoryCommand: Command {
    static let spec = CommandSpec(
        "mkdir", summary: "create remote folders",
        options: [
            OptionSpec(["--parents", "-p"], help: "create missing parents; an existing folder is fine"),
            WriteQueueing.option,
        ],
        positionals: [
            PositionalSpec("PATH", help: "remote folder to create, or NAME:bucket (a bucket)", variadic: true)
        ])

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        let files = try context.files()
        let targets = try parsed.positionals.map { try context.location($0, plain: .officer) }
        try await BatchRunner.run(targets, context: context) { target in
            try await WriteQueueing.perform(
                parsed, context, files, change: .makeFolder(target, parents: parsed.flag("parents"))
            ) {
                let entry = try await files.makeFolder(target, parents: parsed.flag("parents"))
                if context.global.json {
                    context.printJSON(EntryRecord(entry))
                } else if context.global.verbose {
                    context.say("created \(target)")
                }
            }
        }
    }
}
