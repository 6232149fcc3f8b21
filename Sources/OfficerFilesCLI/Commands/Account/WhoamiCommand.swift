import FileModel
import HTTP
import Officer
import Transfer

/// `whoami`: the signed-in user, checked against the server.
enum WhoamiCommand: Command {
    static let spec = CommandSpec("whoami", summary: "show who the saved token belongs to")

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        let client = try context.client()
        let user = try await client.me()
        if context.global.json {
            context.printJSON(WhoamiResult(server: client.server, user: user))
        } else {
            context.console.print("\(user.email) (\(user.role)) on \(client.server)")
        }
    }

    struct WhoamiResult: Encodable {
        var server: String
        var user: UserInfo
    }
}
