import HTTP
import Officer
import Transfer

/// `logout`: revokes the token on the server when it can, and always forgets it locally.
enum LogoutCommand: Command {
    static let spec = CommandSpec("logout", summary: "revoke and forget the saved token")

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        var config = try context.configStore.load()
        guard config.token != nil else {
            context.say("Not logged in.")
            return
        }
        var revoked = true
        do {
            try await context.client().signOut()
        } catch let error as OfficerError {
            // The token is forgotten either way; an unreachable server is only worth a note.
            if case .notSignedIn = error {} else {
                revoked = false
                if !context.global.quiet { context.console.message("warning: could not revoke the token on the server: \(error)") }
            }
        }
        config.token = nil
        try context.configStore.save(config)
        context.say(revoked ? "Logged out." : "Logged out locally.")
    }
}
