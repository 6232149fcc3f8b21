import FileModel
import HTTP
import Officer
import Transfer

/// `whoami`: the signed-in user, checked against the server.
enum WhoamiCommand: Command {
    static let spec = CommandSpec(
        "whoami", summary: "show who the saved token belongs to",
        positionals: [
            PositionalSpec(
                "REMOTE", help: "a named Officer remote (remote add NAME --officer URL); default: the default server",
                optional: true)
        ])

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        let files = try context.files()
        let user = try await files.whoAmI()
        let server = files.configuration.server ?? ""
        if context.global.json {
            context.printJSON(AccountRecord(server: server, user: AccountRecord.User(user)))
        } else {
            context.console.print("\(user.email) (\(user.role)) on \(server)")
        }
    }
}
