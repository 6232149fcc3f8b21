import HTTP
import Officer
import Transfer

/// `logout`: revokes the token on the server when it can, and always forgets it locally.
enum LogoutCommand: Command {
    static let spec = CommandSpec(
        "logout", summary: "revoke and forget the saved token",
        positionals: [
            PositionalSpec(
                "REMOTE", help: "a named Officer remote (remote add NAME --officer URL); default: the default server",
                optional: true)
        ])

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        let config = try context.configStore.load()
        let token = context.officerRemote.map { config.officers?[$0]?.token } ?? config.token
        guard token != nil else {
            if context.global.json {
                context.printJSON(
                    LogoutRecord(
                        server: (try? context.serverURL(config: config)) ?? "", revoked: false, wasSignedIn: false))
            } else {
                context.say("Not logged in.")
            }
            return
        }
        let files = try context.files()
        let outcome = try await files.signOut()
        // The saved token goes too, whichever token the front door used (OFFICER_TOKEN may have been another).
        if let server = files.configuration.server {
            try ConfigTokenStore(store: context.configStore).remove(for: server)
        }
        // The token is forgotten either way; an unreachable server is only worth a note.
        if let problem = outcome.problem, !context.global.quiet {
            context.console.message("warning: could not revoke the token on the server: \(problem)")
        }
        if context.global.json {
            context.printJSON(
                LogoutRecord(
                    server: files.configuration.server ?? "", revoked: outcome.problem == nil, wasSignedIn: true))
        } else {
            context.say(outcome.problem == nil ? "Logged out." : "Logged out locally.")
        }
    }
}
