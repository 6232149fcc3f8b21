import Foundation

/// Runs the built `officer-files` binary with a private config folder, as a user on a fresh machine would.
public struct CLIRunner: Sendable {
    /// `XDG_CONFIG_HOME` and `HOME` of the runs.
    public let home: TemporaryDirectory
    /// Extra environment.
    public var environment: [String: String]

    /// A runner with an empty config.
    public init(environment: [String: String] = [:]) {
        home = TemporaryDirectory(prefix: "officer-home")
        self.environment = environment
    }

    /// The config file the CLI writes.
    public var configPath: String { home.path + "/config/officer-files/config.json" }

    /// Runs `officer-files ARGUMENTS`.
    public func run(_ arguments: [String], stdin: String? = nil, environment extra: [String: String] = [:]) async throws -> ProcessResult {
        var env = ["HOME": home.path, "XDG_CONFIG_HOME": home.path + "/config", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        env.merge(environment) { $1 }
        env.merge(extra) { $1 }
        return try await ProcessRunner.runDetached(ProcessRunner.cliPath, arguments, environment: env, stdin: stdin)
    }

    /// Logs in to `server` with its test user.
    public func login(_ server: ReferenceServer) async throws -> ProcessResult {
        try await run(["login", "--server", server.url, "--email", server.email, "--password-stdin"], stdin: server.password + "\n")
    }
}
