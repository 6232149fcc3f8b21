import Foundation

/// A command run in a real terminal (a detached tmux session of a given size), for what only a terminal shows:
/// the progress display, Ctrl-C, the last frame left on the screen.
public final class TerminalSession: @unchecked Sendable {
    /// The tmux server's socket name, one per session so tests never share a server.
    public let socket: String
    private let name = "t"

    private init(socket: String) { self.socket = socket }

    /// Starts `arguments` (with `environment`) in a terminal of `columns` × `rows`; after the command ends its exit
    /// status is printed as `EXIT=N` and the session stays for reading until ``stop()``.
    ///
    /// With `interruptingOnce`, a regular expression, Ctrl-C is typed once a line of the screen matches it (or after
    /// `interruptTimeout` seconds) by a watcher process of its own, started with the session: a test process whose
    /// cooperative pool is busy (two threads on this machine, a hundred suites beside) once resumed its task only
    /// after a whole three-minute upload, so the keys must not wait for it. ``interrupted()`` reads the result.
    public static func start(
        _ arguments: [String], environment: [String: String], columns: Int = 80, rows: Int = 24,
        interruptingOnce pattern: String? = nil, interruptTimeout: Double = 120
    ) async throws -> TerminalSession {
        let session = TerminalSession(socket: "officer-files-test-\(getpid())-\(UUID().uuidString.prefix(8))")
        let assignments = environment.map { "\($0.key)=\(quoted($0.value))" }.joined(separator: " ")
        let command =
            "env \(assignments) \(arguments.map(quoted).joined(separator: " ")); echo EXIT=$?; exec tail -f /dev/null"
        // tmux's server would keep every descriptor this process lets it inherit (a pipe of the caller's stays
        // open, and whoever reads it waits for the server): python starts it with none but the standard three, and
        // its watcher with none at all.
        let started = try await ProcessRunner.runDetached(
            "/usr/bin/python3",
            [
                "-c", launcher, "/usr/bin/tmux", session.socket, session.name, pattern ?? "", String(interruptTimeout),
                "new-session", "-d", "-s", session.name, "-x", String(columns), "-y", String(rows), command,
            ])
        guard started.status == 0 else { throw NotStarted(output: started.stderr) }
        return session
    }

    /// Starts the tmux session, then (given a pattern) forks the watcher that types Ctrl-C: detached, its standard
    /// descriptors on /dev/null and no other open, polling the screen (tmux is a process of its own) until a line
    /// matches, the session is gone, or the time is up.
    private static let launcher = #"""
        import os, re, subprocess, sys, time
        tmux, socket, name, pattern, timeout = sys.argv[1:6]
        status = subprocess.run([tmux, "-L", socket] + sys.argv[6:], stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL).returncode
        if status != 0 or not pattern:
            sys.exit(status)
        if os.fork() == 0:
            os.setsid()
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            os.closerange(3, 65536)
            expression, deadline = re.compile(pattern, re.M), time.monotonic() + float(timeout)
            while time.monotonic() < deadline:
                screen = subprocess.run([tmux, "-L", socket, "capture-pane", "-p", "-t", name],
                                        stdin=subprocess.DEVNULL, capture_output=True)
                if screen.returncode != 0:
                    os._exit(0)
                if expression.search(screen.stdout.decode(errors="replace")):
                    break
                time.sleep(0.05)
            subprocess.run([tmux, "-L", socket, "send-keys", "-t", name, "C-c"], stdin=subprocess.DEVNULL,
                           capture_output=True)
            os._exit(0)
        """#

    /// Ends the session and its tmux server. The session is killed first: tmux 3.3a answers `kill-server` with
    /// status 0 and leaves a server whose pane waits in `tail -f` running (every session of a test run stayed).
    public func stop() async {
        _ = try? await tmux(["kill-session", "-t", name])
        _ = try? await tmux(["kill-server"])
    }

    /// Keys typed into the terminal (`C-c` for Ctrl-C).
    public func send(_ keys: String) async throws { _ = try await tmux(["send-keys", "-t", name, keys]) }

    /// The screen as it is now, one string per line, trailing blanks dropped.
    public func screen() async throws -> [String] {
        Self.lines(try await tmux(["capture-pane", "-p", "-t", name]))
    }

    /// Waits until the screen holds `text` (at most `timeout` seconds); the screen then.
    public func wait(for text: String, timeout: Double) async throws -> [String] {
        try await wait(timeout: timeout) { $0.contains(text) }
    }

    /// Polls the screen (``Eventually``: tmux is a process of its own) until a line satisfies `matches`.
    private func wait(timeout: Double, until matches: @escaping @Sendable (String) -> Bool) async throws -> [String] {
        let (socket, name) = (socket, name)
        await Eventually.wait(timeout: timeout) {
            Self.lines(Self.tmux(socket, ["capture-pane", "-p", "-t", name])).contains(where: matches)
        }
        return try await screen()
    }

    private static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0.reversed().drop(while: { $0 == " " }).reversed())
        }
    }

    /// The screen the command left once the Ctrl-C of `start(…interruptingOnce:)` ended it, with its `EXIT=N`;
    /// the session is stopped. The interruption follows what the display shows, never a guessed time.
    public func interrupted(timeout: Double = 300) async throws -> [String] {
        let screen = try await wait(for: "EXIT=", timeout: timeout)
        await stop()
        return screen
    }

    /// A progress total with some bytes moved: `Transferred: 256 KiB / …`, not `Transferred: 0 B / …`.
    public static let bytesMoved = #"^Transferred: (?!0 B )[0-9]"#

    /// One tmux command's output, run on a thread of its own.
    private func tmux(_ arguments: [String]) async throws -> String {
        let socket = socket
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: Self.tmux(socket, arguments)) }
        }
    }

    /// One tmux command's output, the calling thread blocked until it ends (at most 20 s). Written to a file,
    /// never through a pipe: a pipe's write end can be inherited by a process another test starts at that
    /// moment, and a reader then waits for that process to end (tests here poll the screen many times a second).
    private static func tmux(_ socket: String, _ arguments: [String]) -> String {
        let output = NSTemporaryDirectory() + "/\(socket)-\(UUID().uuidString.prefix(8)).out"
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        defer { unlink(output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/tmux")
        process.arguments = ["-L", socket] + arguments
        process.standardInput = FileHandle.nullDevice
        guard let handle = try? FileHandle(forWritingTo: URL(fileURLWithPath: output)) else { return "" }
        defer { try? handle.close() }
        process.standardOutput = handle
        process.standardError = FileHandle.nullDevice
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        guard (try? process.run()) != nil else { return "" }
        if ended.wait(timeout: .now() + 20) == .timedOut { process.terminate() }
        return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
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
