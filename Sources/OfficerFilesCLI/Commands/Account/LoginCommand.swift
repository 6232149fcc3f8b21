import FileModel
import HTTP
import Officer
import Transfer

/// `login`: checks the server, signs in, saves server and token in the 0600 config.
enum LoginCommand: Command {
    static let spec = CommandSpec(
        "login", summary: "sign in to an Officer server and remember the token",
        discussion: """
            The password is read from the terminal without echo, or from one line of stdin with
            --password-stdin; it is never taken from the command line.
            """,
        options: [
            OptionSpec(["--email"], .value(placeholder: "EMAIL"), help: "account email (required)"),
            OptionSpec(["--password-stdin"], help: "read the password from the first line of stdin"),
        ])

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        let config = try context.configStore.load()
        guard let email = parsed.value("email"), !email.isEmpty else {
            throw CLIError.usage("'login' needs --email EMAIL")
        }
        let server = try context.serverURL(config: config)
        var configuration = OfficerFiles.Configuration(server: server, tokens: ConfigTokenStore(store: context.configStore, email: email))
        configuration.http = context.httpClient().configuration
        let files = try OfficerFiles(configuration: configuration)
        let info = try await files.serverInfo()
        if try files.client.isInsecureRemote && !context.global.quiet {
            context.console.message("warning: \(server) is plain http to another machine: your password and token can be read on the way")
        }
        let password = try PasswordPrompt.secret(
            standardInput: parsed.flag("password-stdin"), prompt: "Password for \(email) on \(server): ", flag: "--password-stdin", what: "password")
        // The front door saves the token in the config (ConfigTokenStore), only once the server accepted it.
        let session = try await files.signIn(email: email, password: password)
        if context.global.json {
            context.printJSON(LoginResult(server: server, user: session.user, serverVersion: info.server.version))
        } else {
            context.say("Logged in to \(server) as \(session.user.email) (\(session.user.role)).")
        }
    }

    struct LoginResult: Encodable {
        var server: String
        var user: UserInfo
        var serverVersion: String
    }
}
