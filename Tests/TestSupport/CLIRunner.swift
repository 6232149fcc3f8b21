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

    /// The journal the CLI keeps unfinished transfers in.
    public var journalPath: String { home.path + "/state/officer-files/journal.sqlite" }

    /// The config file the CLI writes.
    public var configPath: String { home.path + "/config/officer-files/config.json" }

    /// The environment of every run: a private HOME, config and state folder.
    public func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = [
            "HOME": home.path, "XDG_CONFIG_HOME": home.path + "/config", "XDG_STATE_HOME": home.path + "/state",
            "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
        ]
        // Sanitizer settings reach the CLI too (scripts/test-asan, scripts/test-tsan run an instrumented one).
        for key in ["ASAN_OPTIONS", "TSAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS"] {
            if let value = ProcessInfo.processInfo.environment[key] { env[key] = value }
        }
        env.merge(environment) { $1 }
        env.merge(extra) { $1 }
        return env
    }

    /// Runs `officer-files ARGUMENTS` to completion.
    public func run(
        _ arguments: [String], stdin: String? = nil, environment extra: [String: String] = [:],
        in directory: String? = nil
    ) async throws -> ProcessResult {
        try await ProcessRunner.runDetached(
            ProcessRunner.cliPath, arguments, environment: environment(extra), stdin: stdin, currentDirectory: directory
        )
    }

    /// Starts `officer-files ARGUMENTS` in the background (output discarded), to be killed by the test.
    public func launch(_ arguments: [String], environment extra: [String: String] = [:], in directory: String? = nil)
        throws -> Process
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ProcessRunner.cliPath)
        process.arguments = arguments
        process.environment = environment(extra)
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try ProcessRunner.spawning { try process.run() }
        return process
    }

    /// Starts `officer-files ARGUMENTS` in the background with its standard error collected (standard output
    /// discarded), to be waited for or killed by the test.
    public func launchCapturingErrors(_ arguments: [String], environment extra: [String: String] = [:]) throws
        -> LaunchedCLI
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ProcessRunner.cliPath)
        process.arguments = arguments
        process.environment = environment(extra)
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try ProcessRunner.spawning { try process.run() }
        return LaunchedCLI(process: process, errors: errors)
    }

    /// The token `login` saved.
    public func savedToken() throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: configPath))
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["token"] as? String ?? ""
    }

    /// Logs in to `server` with its test user.
    public func login(_ server: ReferenceServer, url: String? = nil) async throws -> ProcessResult {
        try await run(
            ["login", "--server", url ?? server.url, "--email", server.email, "--password-stdin"],
            stdin: server.password + "\n")
    }
}

/// A CLI run in the background whose standard error is collected as it comes.
public final class LaunchedCLI: @unchecked Sendable {
    /// The process.
    public let process: Process
    private let lock = NSLock()
    private var collected = Data()
    private let done = DispatchSemaphore(value: 0)

    init(process: Process, errors: Pipe) {
        self.process = process
        let handle = errors.fileHandleForReading
        Thread.detachNewThread { [self] in
            let data = handle.readDataToEndOfFile()
            lock.withLock { collected = data }
            done.signal()
        }
    }

    /// Its standard error, once it has ended (waits for the end).
    public func stderr() -> String {
        process.waitUntilExit()
        done.wait()
        done.signal()
        return lock.withLock { String(decoding: collected, as: UTF8.self) }
    }
}
