import FileModel
import Foundation
import HTTP
import Officer
import Transfer

/// `login`: checks the server, signs in, saves server and token in the 0600 config.
enum LoginCommand: Command {
    static let spec = CommandSpec(
        "login", summary: "sign in to an Officer server and remember the token",
        discussion: """
            The password is read from the terminal without echo, from one line of stdin with
            --password-stdin, or from the first line of a file only you can read (mode 600) with
            --password-file; it is never taken from the command line.
            A token expires (the server decides when). With --remember, a command that finds it refused
            signs in again once by itself and goes on, so an unattended watch or cron sync keeps working:
            the password is kept in the config file (mode 600), or with --password-file only that file's
            path, read again each time. OFFICER_PASSWORD_FILE=PATH does the same for any run without
            --remember. A login without --remember forgets what an earlier one kept; logout forgets it too.
            """,
        options: [
            OptionSpec(["--email"], .value(placeholder: "EMAIL"), help: "account email (required)"),
            OptionSpec(["--password-stdin"], help: "read the password from the first line of stdin"),
            OptionSpec(
                ["--password-file"], .value(placeholder: "PATH"),
                help: "read the password from the first line of PATH (mode 600)"),
            OptionSpec(["--remember"], help: "sign in again by itself when the token expires (for unattended runs)"),
        ],
        positionals: [
            PositionalSpec(
                "REMOTE", help: "a named Officer remote (remote add NAME --officer URL); default: the default server",
                optional: true)
        ])

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        let config = try context.configStore.load()
        guard let email = parsed.value("email"), !email.isEmpty else {
            throw CLIError.usage("'login' needs --email EMAIL")
        }
        let server = try context.serverURL(config: config)
        let passwordFile = parsed.value("password-file").map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        if passwordFile != nil, parsed.flag("password-stdin") {
            throw CLIError.usage("give --password-stdin or --password-file, not both")
        }
        let password = try passwordFile.map { path throws(CLIError) in try PasswordFile.read(path) }
        var configuration = OfficerFiles.Configuration(
            server: server, tokens: ConfigTokenStore(store: context.configStore, email: email))
        configuration.http = context.httpClient().configuration
        let files = try OfficerFiles(configuration: configuration)
        let info = try await files.server.serverInfo()
        if try files.client.isInsecureRemote && !context.global.quiet {
            context.console.message(
                "warning: \(server) is plain http to another machine: your password and token can be read on the way")
        }
        let secret =
            try password
            ?? PasswordPrompt.secret(
                standardInput: parsed.flag("password-stdin"), prompt: "Password for \(email) on \(server): ",
                flag: "--password-stdin", what: "password")
        let remember: ConfigTokenStore.Remembered =
            !parsed.flag("remember")
            ? .nothing : passwordFile.map { ConfigTokenStore.Remembered.file($0) } ?? .password(secret)
        // The front door saves the token (and what --remember keeps) in the config, only once the server accepted it.
        configuration.tokens = ConfigTokenStore(store: context.configStore, email: email, remember: remember)
        let user = try await OfficerFiles(configuration: configuration).signIn(email: email, password: secret)
        if let certificate = context.global.caCertificate
            ?? context.environment["OFFICER_CACERT"].flatMap({ $0.isEmpty ? nil : $0 })
        {
            // Remembered with the token, so every later command trusts the server the same way.
            var config = try context.configStore.load()
            var certificates = config.certificates ?? [:]
            certificates[ConfigTokenStore.normalized(server)] =
                URL(fileURLWithPath: certificate).standardizedFileURL.path
            config.certificates = certificates
            try context.configStore.save(config)
        }
        if context.global.json {
            context.printJSON(
                AccountRecord(
                    server: server, user: AccountRecord.User(user), serverVersion: info.server?.version))
        } else {
            context.say("Logged in to \(server) as \(user.email) (\(user.role)).")
        }
    }
}
