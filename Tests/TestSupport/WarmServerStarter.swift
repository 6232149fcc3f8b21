import Foundation

/// Starts reference servers warm (`Tests/Server/warm_start.py`): one Python process per test process that has
/// imported the server once and forks a fresh one per start. A cold start (`scripts/reference-server`) costs
/// about 0.45 s of CPU in Python's imports; the suite starts over 300 servers on two cores.
///
/// The starter is this process's: its stdin is a pipe only this process writes, so it ends when this process
/// does, and the servers it forked end with it. `OFFICER_TESTS_COLD_SERVERS=1` starts every server cold instead
/// (to rule the starter out when a test fails).
final class WarmServerStarter: Sendable {
    /// The starter, started at its first use; nil when servers start cold.
    static let shared: Result<WarmServerStarter, any Error>? = {
        guard ProcessInfo.processInfo.environment["OFFICER_TESTS_COLD_SERVERS"] != "1" else { return nil }
        return Result { try WarmServerStarter() }
    }()

    private let process: Process
    private let requests: FileHandle

    private init() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ProcessRunner.packageRoot + "/.venv/bin/python")
        process.arguments = ["-u", "warm_start.py"]
        process.currentDirectoryURL = URL(fileURLWithPath: ProcessRunner.packageRoot + "/Tests/Server")
        requests = try ProcessRunner.spawning { () throws -> FileHandle in
            let input = Pipe()
            _ = fcntl(input.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
            process.standardInput = input
            try process.run()
            try input.fileHandleForReading.close()
            return input.fileHandleForWriting
        }
        self.process = process
    }

    /// Starts a server with `arguments` (as `scripts/reference-server` takes them) and waits, on the calling
    /// thread, for its `listening on` line.
    func start(arguments: [String]) throws -> (server: ForkedServer, url: String) {
        let ready = NSTemporaryDirectory() + "/officer-warm-\(UUID().uuidString)"
        guard mkfifo(ready, 0o600) == 0 else { throw StartError(detail: "mkfifo \(ready): errno \(errno)") }
        defer { unlink(ready) }
        var line = try JSONSerialization.data(withJSONObject: ["argv": arguments, "ready": ready])
        line.append(UInt8(ascii: "\n"))
        // One write under PIPE_BUF bytes: whole, never interleaved with another test's request.
        guard line.count < Int(PIPE_BUF) else { throw StartError(detail: "request of \(line.count) bytes") }
        guard process.isRunning else { throw StartError(detail: "the warm starter ended") }
        // Opened before the starter opens it to write: Linux reports a FIFO's writers gone (the server's end) only
        // to a reader that was there when they came.
        let descriptor = open(ready, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw StartError(detail: "open \(ready): errno \(errno)") }
        do { try requests.write(contentsOf: line) } catch {
            close(descriptor)
            throw error
        }
        let lines = ForkedServer.lines(from: descriptor, until: { $0.hasPrefix("listening on ") }, timeout: 120)
        guard let pid = lines.first(where: { $0.hasPrefix("pid ") }).flatMap({ Int32($0.dropFirst(4)) }),
            let listening = lines.last, listening.hasPrefix("listening on ")
        else {
            close(descriptor)
            throw StartError(detail: "did not start: \(lines.joined(separator: "\n"))")
        }
        return (ForkedServer(pid: pid, descriptor: descriptor), String(listening.dropFirst("listening on ".count)))
    }

    /// A server the starter did not start.
    struct StartError: Error, CustomStringConvertible {
        /// What went wrong.
        let detail: String
        var description: String { "warm reference server: \(detail)" }
    }
}
