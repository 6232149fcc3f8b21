import Foundation

/// A command run in a real terminal (a detached tmux session of a given size), for what only a terminal shows:
/// the progress display, Ctrl-C, the last frame left on the screen.
public final class TerminalSession: @unchecked Sendable {
    /// The tmux server's socket name, one per session so tests never share a server.
    public let socket: String
    private let name = "t"

    private init(socket: String) { self.socket = socket }

    /// Starts `arguments` (with `environment`) in a terminal of `columns` × `rows`; after the command ends its exit
    /// status is printed as `EXIT=N` and the session stays for reading.
    public static func start(_ arguments: [String], environment: [String: String], columns: Int = 80, rows: Int = 24) async throws -> TerminalSession {
        let session = TerminalSession(socket: "officer-files-test-\(getpid())-\(UUID().uuidString.prefix(8))")
        let assignments = environment.map { "\($0.key)=\(quoted($0.value))" }.joined(separator: " ")
        let command = "env \(assignments) \(arguments.map(quoted).joined(separator: " ")); echo EXIT=$?; sleep 600"
        // tmux's server would keep every descriptor this process lets it inherit (a pipe of the caller's stays
        // open, and whoever reads it waits for the server): python starts it with none but the standard three.
        let started = try await ProcessRunner.runDetached(
            "/usr/bin/python3",
            ["-c", "import subprocess, sys; sys.exit(subprocess.run(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL).returncode)",
             "/usr/bin/tmux", "-L", session.socket, "new-session", "-d", "-s", session.name, "-x", String(columns), "-y", String(rows), command])
        guard started.status == 0 else { throw NotStarted(output: started.stderr) }
        return session
    }

    deinit { _ = try? ProcessRunner.run("/usr/bin/tmux", ["-L", socket, "kill-server"]) }

    /// Keys typed into the terminal (`C-c` for Ctrl-C).
    public func send(_ keys: String) async throws { _ = try await tmux(["send-keys", "-t", name, keys]) }

    /// The screen as it is now, one string per line, trailing blanks dropped.
    public func screen() async throws -> [String] {
        try await tmux(["capture-pane", "-p", "-t", name]).stdout.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0.reversed().drop(while: { $0 == " " }).reversed())
        }
    }

    /// Waits until the screen holds `text` (at most `timeout` seconds); the screen then.
    public func wait(for text: String, timeout: Double) async throws -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let lines = try await screen()
            if lines.contains(where: { $0.contains(text) }) { return lines }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        return try await screen()
    }

    private func tmux(_ arguments: [String]) async throws -> ProcessResult {
        try await ProcessRunner.runDetached("/usr/bin/tmux", ["-L", socket] + arguments)
    }

    /// tmux refused to start the session.
    public struct NotStarted: Error, CustomStringConvertible {
        /// What it said.
        public var output: String
        /// The message.
        public var description: String { "tmux did not start: \(output)" }
    }

    static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}
