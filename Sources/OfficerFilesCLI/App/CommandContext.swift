import FileModel
import Foundation
import HTTP
import Officer
import Transfer

/// Everything a command needs: output, options, environment, configuration, and the server client.
package struct CommandContext: Sendable {
    /// Where output goes.
    package let console: Console
    /// The global options.
    package let global: GlobalOptions
    /// The process environment.
    package let environment: [String: String]
    /// The configuration file.
    package let configStore: ConfigStore
    /// The options the running command offers (`--force`, `--parents`, …), so an error's message may suggest the
    /// one that settles it.
    package var offeredOptions: Set<String> = []
    /// The flags given on this command line (`force`), so a hint never suggests one already given.
    package var givenOptions: Set<String> = []
    /// The command being run (`login`, `put`), for hints that are commands of its own.
    package var invokedCommand: String?
    /// The named Officer remote this command's Officer paths are on (`work:/…`), nil for the default server.
    package var officerRemote: String?
    /// Remotes made in code, by name (a test's in-memory remote), beside the configured ones.
    package var registeredRemotes: [String: any Remote] = [:]

    /// Creates a context.
    package init(console: Console, global: GlobalOptions, environment: [String: String], configStore: ConfigStore) {
        self.console = console
        self.global = global
        self.environment = environment
        self.configStore = configStore
    }

    /// The HTTP client configured from the global options; `-v` logs to stderr.
    package func httpClient() -> HTTPClient {
        var configuration = HTTPClientConfiguration()
        configuration.insecure = global.insecure
        configuration.caCertificatePath = caCertificate()
        configuration.offline = global.offline
        configuration.userAgent = "officer-files/\(OfficerFilesApp.version)"
        if let engine = try? httpEngine() { configuration.engine = engine }
        // For measuring (bench/h2): file bodies over HTTP/2 streams where the server offers them.
        configuration.bulkOverHTTP2 = environment["OFFICER_HTTP2_BULK"] == "1"
        // Checked before the command runs (OfficerFilesApp), so a bad value never reaches here.
        if let (rate, seconds) = try? global.lowSpeed() {
            if let rate { configuration.lowSpeedLimit = rate }
            if let seconds { configuration.lowSpeedWindow = seconds }
        }
        if global.verbose {
            let console = console
            configuration.log = { console.message($0) }
        }
        return HTTPClient(configuration: configuration)
    }

    /// The HTTP engine `OFFICER_HTTP_ENGINE` names: `curl` (libcurl's, the default) or `urlsession` (the portable
    /// core's, as an app on Apple platforms runs; here on FoundationNetworking, which cannot keep `--bwlimit`).
    /// Checked before the command runs (OfficerFilesApp).
    package func httpEngine() throws(CLIError) -> (any HTTPEngine)? {
        switch environment["OFFICER_HTTP_ENGINE"] ?? "" {
        case "", "curl": return nil
        case "urlsession": return URLSessionEngine.shared
        case let other where other.hasPrefix("daemon:"):
            // The tests' stand-in for the system's transfer daemon (background transfers).
            return TransferDaemonEngine(control: String(other.dropFirst("daemon:".count)))
        case let other: throw .usage("OFFICER_HTTP_ENGINE=\(other): give curl or urlsession")
        }
    }

    /// The CA certificates to trust: `--cacert`, then `OFFICER_CACERT`, then the file `login --cacert` remembered
    /// for this command's server.
    func caCertificate() -> String? {
        if let given = global.caCertificate ?? environment["OFFICER_CACERT"].flatMap({ $0.isEmpty ? nil : $0 }) {
            return given
        }
        guard let config = try? configStore.load(), let server = try? serverURL(config: config) else { return nil }
        return config.certificates?[ConfigTokenStore.normalized(server)]
    }

    /// The server URL: `--server`, then `OFFICER_SERVER`, then the config.
    package func serverURL(config: OfficerConfig) throws(CLIError) -> String {
        if let name = officerRemote {
            guard let profile = config.officers?[name] else {
                throw .usage("\(name): no such remote; see officer-files remote list")
            }
            return profile.server
        }
        guard
            let server = global.server ?? environment["OFFICER_SERVER"].flatMap({ $0.isEmpty ? nil : $0 })
                ?? config.server
        else { throw .noServer }
        guard server.lowercased().hasPrefix("http://") || server.lowercased().hasPrefix("https://") else {
            throw .usage("--server \(server): only http:// and https:// URLs are supported")
        }
        return server
    }

    /// The configured server and where its token is: `OFFICER_TOKEN` (checked, kept in memory), else the config
    /// file, which hands its token only to the server that issued it, and signs in again when the server refuses
    /// it if `OFFICER_PASSWORD_FILE` names a password file or `login --remember` kept a way.
    func account() throws -> (server: String, tokens: any TokenStore) {
        let server = try serverURL(config: try configStore.load())
        guard let token = environment["OFFICER_TOKEN"].flatMap({ $0.isEmpty ? nil : $0 }) else {
            var tokens = ConfigTokenStore(store: configStore)
            tokens.environmentPasswordFile = environment["OFFICER_PASSWORD_FILE"].flatMap { $0.isEmpty ? nil : $0 }
            return (server, tokens)
        }
        do {
            try BearerCredential.validate(token)
        } catch {
            throw CLIError.refused("OFFICER_TOKEN: \(error)", .authentication)
        }
        return (server, MemoryTokenStore(server: server, token: token))
    }

    /// The root used when a path names none: `--root`, then the config, then `home`.
    package var defaultRoot: String {
        global.root ?? (try? configStore.load().root ?? nil) ?? RemotePath.defaultRoot
    }

    /// A remote path from a command-line argument: `officer:/p`, `officer:ROOT:/p`, or a plain `/p`.
    package func remotePath(_ argument: String) throws(RemotePathError) -> RemotePath {
        let remotes = officerRemoteNames
        try Location.checkRemoteName(
            argument, known: remotes.union((((try? configStore.load().remotes) ?? nil) ?? [:]).keys))
        if RemotePath.isRemote(argument, remotes: remotes) {
            return try RemotePath(parsing: argument, defaultRoot: defaultRoot, remotes: remotes)
        }
        var path = try RemotePath(root: defaultRoot, path: argument)
        path.namesFolder = argument.count > 1 && argument.hasSuffix("/") && !path.isRoot
        return path
    }

    /// True when the argument names a place on an Officer server: `officer:…` or a configured Officer remote's `NAME:…`.
    package func isOfficerPath(_ argument: String) -> Bool {
        RemotePath.isRemote(argument, remotes: officerRemoteNames)
    }

    /// The names of the configured Officer remotes (`remote add NAME --officer URL`).
    var officerRemoteNames: Set<String> { Set(((try? configStore.load().officers) ?? nil)?.keys ?? [:].keys) }

    /// The progress display for this run's options and terminal; the console's messages go through it from now
    /// on, so a line written while it draws is never drawn over.
    package func progressReporter() -> ProgressReporter {
        let console = console
        let reporter = ProgressReporter(
            mode: ProgressReporter.mode(
                json: global.json, quiet: global.quiet, noProgress: global.noProgress, console: console,
                environment: environment),
            write: { console.messageRaw($0) })
        console.showMessages(through: reporter)
        return reporter
    }

    /// Prints a value as one line of JSON (docs/JSON.md).
    package func printJSON(_ value: some Encodable) { console.print(jsonLine(value)) }

    /// A value as one line of JSON: keys sorted, slashes as they are; every JSON line the CLI writes is made here.
    package func jsonLine(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// Prints a line unless `-q`.
    package func say(_ text: String) {
        if !global.quiet { console.print(text) }
    }
}
