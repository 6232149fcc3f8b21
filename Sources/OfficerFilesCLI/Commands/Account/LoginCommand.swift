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
        var config = try context.configStore.load()
        guard let email = parsed.value("email"), !email.isEmpty else {
            throw CLIError.usage("'login' needs --email EMAIL")
        }
        let server = try context.serverURL(config: config)
        let client = OfficerClient(server: server, http: context.httpClient())
        let info = try await client.serverInfo()
        if client.isInsecureRemote && !context.global.quiet {
            context.console.message("warning: \(server) is plain http to another machine: your password and token can be read on the way")
        }
        let password: String?
        if parsed.flag("password-stdin") {
            password = PasswordPrompt.fromStandardInput()
        } else {
            password = PasswordPrompt.fromTerminal(prompt: "Password for \(email) on \(server): ")
        }
        guard let password, !password.isEmpty else {
            throw CLIError.usage("no password: type it at the prompt, or pipe it with --password-stdin")
        }
        let session = try await client.signIn(email: email, password: password)
        config.server = client.server
        config.email = email
        config.token = session.token
        try context.configStore.save(config)
        if context.global.json {
            context.printJSON(LoginResult(server: client.server, user: session.user, serverVersion: info.server.version))
        } else {
            context.say("Logged in to \(client.server) as \(session.user.email) (\(session.user.role)).")
        }
    }

    struct LoginResult: Encodable {
        var server: String
        var user: UserInfo
        var serverVersion: String
    }
}
