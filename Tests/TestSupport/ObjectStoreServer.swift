import Foundation

/// The one-node OpenStack Swift store speaking S3 (`scripts/object-store`), started once per test process on
/// tmpfs and stopped when the process exits. Tests share it and keep apart by bucket (``freshBucket(_:)``).
public final class ObjectStoreServer: @unchecked Sendable {
    /// The S3 endpoint, `http://127.0.0.1:PORT`.
    public let url: String
    /// The test account's access key.
    public let accessKey = "test:tester"
    /// Its secret key.
    public let secretKey = "testing"
    /// The region it answers for.
    public let region = "us-east-1"
    private let state: String

    private init(url: String, state: String) {
        self.url = url
        self.state = state
    }

    /// The port of the endpoint.
    public var port: Int { Int(url.split(separator: ":").last!)! }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var started: Task<ObjectStoreServer, any Error>?

    /// The shared store, started on first use (about 10 s the first time on a machine, 2 s after).
    public static func shared() async throws -> ObjectStoreServer {
        let task = lock.withLock {
            if let started { return started }
            let task = Task { try await launch() }
            started = task
            return task
        }
        return try await task.value
    }

    private static func launch() async throws -> ObjectStoreServer {
        let memory = FileManager.default.isWritableFile(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let state = memory + "/officer-object-store-test-\(getpid())"
        // The store also watches this process: it stops itself when the test run ends however it ends.
        let output = try await runScript(["start", state, String(getpid())])
        guard let line = output.split(separator: "\n").first, line.hasPrefix("listening on ") else {
            throw BackgroundService.ServiceError.didNotStart(script: "object-store", output: output)
        }
        let server = ObjectStoreServer(url: String(line.dropFirst("listening on ".count)), state: state)
        stateToStop = state
        atexit {
            guard let state = ObjectStoreServer.stateToStop else { return }
            _ = try? ObjectStoreServer.runScriptNow(["stop", state])
            try? FileManager.default.removeItem(atPath: state)
        }
        return server
    }

    nonisolated(unsafe) private static var stateToStop: String?

    /// Runs `scripts/object-store` with its output in a file, not a pipe: the servers it leaves running inherit
    /// whatever descriptors the test process leaks into children, and a pipe would then never reach its end.
    static func runScriptNow(_ arguments: [String]) throws -> String {
        let log = NSTemporaryDirectory() + "object-store-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        defer { unlink(log) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ProcessRunner.packageRoot + "/scripts/object-store")
        process.arguments = arguments
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try ProcessRunner.spawning { try process.run() }
        try? handle.close()
        process.waitUntilExit()
        return (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    }

    private static func runScript(_ arguments: [String]) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try runScriptNow(arguments) }) }
        }
    }

    /// A bucket name no other test uses.
    public static func freshBucket(_ stem: String) -> String {
        let clean = stem.lowercased().filter { $0.isLetter || $0.isNumber }
        return "\(clean.prefix(30))-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// `rclone` environment naming this store as remote `RS` (path-style, provider Other), outside any config file.
    public func rcloneEnvironment(endpoint: String? = nil) -> [String: String] {
        [
            "RCLONE_CONFIG_RS_TYPE": "s3", "RCLONE_CONFIG_RS_PROVIDER": "Other",
            "RCLONE_CONFIG_RS_ENDPOINT": endpoint ?? url,
            "RCLONE_CONFIG_RS_ACCESS_KEY_ID": accessKey, "RCLONE_CONFIG_RS_SECRET_ACCESS_KEY": secretKey,
            "RCLONE_CONFIG_RS_FORCE_PATH_STYLE": "true", "RCLONE_CONFIG_RS_REGION": region,
            "RCLONE_CONFIG": "/dev/null", "TZ": "UTC", "PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory(),
        ]
    }
}
