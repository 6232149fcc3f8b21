import Foundation

/// A helper program (reference server, fault proxy) that prints `listening on URL` first and runs until stopped.
public final class BackgroundService: @unchecked Sendable {
    /// What runs: a child of this process, or a reference server the warm starter forked.
    private enum Running {
        case process(Process)
        case forked(ForkedServer)
    }

    private let running: Running
    /// The URL from its first line, e.g. `http://127.0.0.1:40123`.
    public let url: String
    /// The port it listens on.
    public var port: Int { Int(url.split(separator: ":").last!)! }

    /// Starts `script` (under `scripts/`, or an absolute path) and waits for its `listening on` line.
    public init(script: String, arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(
            fileURLWithPath: script.hasPrefix("/") ? script : ProcessRunner.packageRoot + "/scripts/" + script)
        process.arguments = arguments
        let output = try ProcessRunner.spawning { () throws -> Pipe in
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.standardError
            try process.run()
            return output
        }
        var line = Data()
        let handle = output.fileHandleForReading
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let range = text.range(of: "listening on ") else {
            process.terminate()
            throw ServiceError.didNotStart(script: script, output: text)
        }
        url = String(text[range.upperBound...].prefix { !$0.isNewline })
        running = .process(process)
    }

    /// Starts a reference server with `arguments`: warm (``WarmServerStarter``) unless servers start cold.
    static func referenceServer(arguments: [String]) throws -> BackgroundService {
        guard let starter = WarmServerStarter.shared else {
            return try BackgroundService(script: "reference-server", arguments: arguments)
        }
        let (server, url) = try starter.get().start(arguments: arguments)
        return BackgroundService(forked: server, url: url)
    }

    private init(forked: ForkedServer, url: String) {
        running = .forked(forked)
        self.url = url
    }

    /// ``referenceServer(arguments:)`` off Swift's cooperative thread pool.
    static func startReferenceServer(arguments: [String]) async throws -> BackgroundService {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try referenceServer(arguments: arguments) })
            }
        }
    }

    /// Whether it still runs.
    public var isRunning: Bool {
        switch running {
        case .process(let process): process.isRunning
        case .forked(let server): server.isRunning
        }
    }

    /// Stops it (SIGTERM, then SIGKILL after two seconds) and waits.
    public func stop() {
        switch running {
        case .process(let process):
            guard process.isRunning else { return }
            process.terminate()
            Eventually.blocking(timeout: 2) { !process.isRunning }
        case .forked(let server):
            server.send(SIGTERM)
            server.waitForEnd(timeout: 2)
        }
        kill()
    }

    /// Sends it `signal` (the fault proxy releases what `--hold-after` held on SIGUSR1).
    public func send(signal: Int32) {
        switch running {
        case .process(let process): Foundation.kill(process.processIdentifier, signal)
        case .forked(let server): server.send(signal)
        }
    }

    /// Kills it at once (SIGKILL), as a crash would, and waits for its end.
    public func kill() {
        switch running {
        case .process(let process):
            if process.isRunning {
                Foundation.kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
        case .forked(let server):
            server.send(SIGKILL)
            server.waitForEnd(timeout: 600)
        }
    }

    // SIGKILL at once: a test's servers have nothing to flush, and a graceful stop would block the releasing thread.
    deinit { kill() }

    /// Starts a service off Swift's cooperative thread pool, which blocking pipe reads would otherwise starve.
    public static func start(script: String, arguments: [String]) async throws -> BackgroundService {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try BackgroundService(script: script, arguments: arguments) })
            }
        }
    }

    /// Why a service did not come up.
    public enum ServiceError: Error, CustomStringConvertible {
        /// It exited or printed something else first.
        case didNotStart(script: String, output: String)

        /// A one-line message.
        public var description: String {
            switch self {
            case .didNotStart(let script, let output): "\(script) did not start: \(output)"
            }
        }
    }
}

/// The reference Officer server over a temporary root, with one user.
public final class ReferenceServer: @unchecked Sendable {
    /// The served folder ("home").
    public let root: TemporaryDirectory
    /// Its state folder (tus uploads).
    public let state: TemporaryDirectory
    /// The running process.
    public let service: BackgroundService
    /// Login email.
    public let email = "ann@example.org"
    /// Login password.
    public let password = "correct horse"

    private init(root: TemporaryDirectory, state: TemporaryDirectory, service: BackgroundService) {
        self.root = root
        self.state = state
        self.service = service
    }

    /// The signing secret of a server restarted in place (``start(root:state:port:arguments:)``), so the tokens of
    /// the one it replaces still hold: pass `["--secret", ReferenceServer.fixedSecret]` to the first.
    public static let fixedSecret = String(repeating: "s", count: 32)

    /// Starts a server over existing folders on a fixed port (to restart one "in place"); `arguments` are added to
    /// its command line (`--api seed`: the same address, fewer endpoints).
    public static func start(root: TemporaryDirectory, state: TemporaryDirectory, port: Int, arguments: [String] = [])
        async throws -> ReferenceServer
    {
        let service = try await BackgroundService.startReferenceServer(
            arguments: inPlaceArguments(root: root, state: state, port: port) + arguments)
        return ReferenceServer(root: root, state: state, service: service)
    }

    /// The same, on the calling thread until the server listens: for a restart from a polling thread
    /// (``Eventually/wait(timeout:_:then:)``), which must land when the condition holds, not when the test's task
    /// gets a thread back.
    public static func startBlocking(root: TemporaryDirectory, state: TemporaryDirectory, port: Int) throws
        -> ReferenceServer
    {
        let service = try BackgroundService.referenceServer(
            arguments: inPlaceArguments(root: root, state: state, port: port))
        return ReferenceServer(root: root, state: state, service: service)
    }

    private static func inPlaceArguments(root: TemporaryDirectory, state: TemporaryDirectory, port: Int) -> [String] {
        [
            "--root", root.path, "--state", state.path, "--port", String(port), "--user",
            "ann@example.org:correct horse", "--secret", fixedSecret,
        ]
    }

    /// Starts a server on a fresh root (on tmpfs with `inMemory`); `arguments` are added to its command line.
    public static func start(arguments: [String] = [], inMemory: Bool = false) async throws -> ReferenceServer {
        let root = TemporaryDirectory(prefix: "officer-root", inMemory: inMemory)
        let state = TemporaryDirectory(prefix: "officer-state", inMemory: inMemory)
        let service = try await BackgroundService.startReferenceServer(
            arguments: [
                "--root", root.path, "--state", state.path, "--port", "0", "--user", "ann@example.org:correct horse",
            ]
                + arguments)
        return ReferenceServer(root: root, state: state, service: service)
    }

    /// Base URL.
    public var url: String { service.url }

    /// Moves the server's clock `seconds` forward (a server started with `--test-clock`): its tokens expire as
    /// if that time had passed, and no test waits for a token's life in real time.
    public func advanceClock(by seconds: Double) async throws {
        let moved = try await ProcessRunner.runDetached(
            "/usr/bin/curl",
            [
                "-sf", "-X", "POST", "-H", "Content-Type: application/json", "-d", "{\"advance\": \(seconds)}",
                url + "/api/_test/clock",
            ])
        guard moved.status == 0 else { throw ClockNotMoved(server: url, status: moved.status) }
    }

    /// The test clock did not move (a server started without `--test-clock`).
    public struct ClockNotMoved: Error {
        /// The server asked.
        public let server: String
        /// curl's exit status.
        public let status: Int32
    }
}

/// The fault proxy in front of `target` (a `host:port`), with fault options as `scripts/fault-proxy` takes them.
public func startFaultProxy(target: String, _ faults: [String]) async throws -> BackgroundService {
    try await BackgroundService.start(
        script: "fault-proxy", arguments: ["--listen", "0", "--target", target, "--lifetime", "7200"] + faults)
}

/// The stand-in for the system's transfer daemon (`Tests/Server/transfer_daemon.py`): it runs the tasks the
/// `daemon:` engine hands it to their end, whatever happens to the process that handed them over.
public func startTransferDaemon() async throws -> BackgroundService {
    try await BackgroundService.start(
        script: ProcessRunner.packageRoot + "/.venv/bin/python",
        arguments: ["-u", ProcessRunner.packageRoot + "/Tests/Server/transfer_daemon.py"])
}

/// The redirect probe (`Tests/Server/redirect_probe.py`); `serving` is the folder behind its Range-ignoring `/plain/NAME`.
public func startRedirectProbe(serving folder: String = "/nonexistent") async throws -> BackgroundService {
    try await BackgroundService.start(
        script: ProcessRunner.packageRoot + "/.venv/bin/python",
        arguments: ["-u", ProcessRunner.packageRoot + "/Tests/Server/redirect_probe.py", "--serve", folder])
}

/// A tus server from PyPI that is not ours (`Tests/Server/interop_tus_server.py`), in its stock configuration.
public enum InteropTusKind: String, CaseIterable, Sendable, CustomStringConvertible {
    /// aiohttp-tus on aiohttp (1 MiB request bodies when stock).
    case aiohttpTus = "aiohttp-tus"
    /// tuspyserver on FastAPI and uvicorn.
    case tuspyserver
    /// drf-tus on Django's development server (2.5 MB request bodies, refused with a bare 400).
    case drfTus = "drf-tus"

    /// Where it takes uploads, below its base URL.
    public var uploadPath: String {
        switch self {
        case .aiohttpTus: "/uploads"
        case .tuspyserver: "/uploads/"
        case .drfTus: "/uploads/files/"
        }
    }

    /// The kind as its name.
    public var description: String { rawValue }
}

/// One of the PyPI tus servers storing finished uploads in `folder` under the name they were sent with; `stock`
/// keeps aiohttp-tus's 1 MiB body limit (the others are always stock).
public func startInteropTusServer(folder: String, kind: InteropTusKind = .aiohttpTus, stock: Bool = false) async throws
    -> BackgroundService
{
    try await BackgroundService.start(
        script: ProcessRunner.packageRoot + "/.venv/bin/python",
        arguments: [
            "-u", ProcessRunner.packageRoot + "/Tests/Server/interop_tus_server.py", "--dir", folder, "--kind",
            kind.rawValue,
        ]
            + (stock ? ["--stock"] : []))
}

/// The fault proxy in front of `target` counting the bytes it forwards upstream in `countFile`; `faults` as
/// `scripts/fault-proxy` takes them.
public func startCountingProxy(target: String, countFile: String, _ faults: [String] = []) async throws
    -> BackgroundService
{
    try await startFaultProxy(target: target, ["--count-file", countFile] + faults)
}

/// The byte count a counting proxy keeps, once it has stayed the same for `quiet` seconds (the connections of a
/// killed client have ended).
public func settledCount(_ countFile: String, quiet: Double = 0.5, timeout: Double = 30) async -> Int64? {
    let seen = LockedCount()
    let settled = await Eventually.wait(timeout: timeout) {
        let now = (try? String(contentsOfFile: countFile, encoding: .utf8)).flatMap { Int64($0) }
        return seen.settled(now, quiet: quiet)
    }
    return settled ? seen.last : nil
}

/// The hostile Officer server (`Tests/Server/hostile_server.py`) in one of its misbehaving modes.
public func startHostileServer(mode: String) async throws -> BackgroundService {
    try await BackgroundService.start(
        script: ProcessRunner.packageRoot + "/.venv/bin/python",
        arguments: ["-u", ProcessRunner.packageRoot + "/Tests/Server/hostile_server.py", "--mode", mode])
}

/// A count and since when it has not changed, for ``settledCount(_:quiet:timeout:)``'s polls.
private final class LockedCount: @unchecked Sendable {  // Touched by the one polling thread only.
    private(set) var last: Int64?
    private var since = Date()

    /// Records `now`; whether it is known and has stayed the same for `quiet` seconds.
    func settled(_ now: Int64?, quiet: Double) -> Bool {
        if now != last {
            last = now
            since = Date()
            return false
        }
        return now != nil && Date().timeIntervalSince(since) >= quiet
    }
}
