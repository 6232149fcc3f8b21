import Foundation

/// The outcome of running a program to completion.
public struct ProcessResult: Sendable {
    /// Exit status.
    public var status: Int32
    /// Everything written to stdout.
    public var stdout: String
    /// Everything written to stderr.
    public var stderr: String
}

/// Runs programs and finds the package's own files.
public enum ProcessRunner {
    /// The package root (found from this file's location).
    public static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The built `officer-files` binary (`swift build` puts it under `.build/debug`).
    /// The CLI built with the tests: beside the test bundle, so a sanitizer build (its own build path) runs its
    /// own instrumented CLI.
    public static var cliPath: String {
        let besideTests =
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path + "/officer-files"
        return FileManager.default.isExecutableFile(atPath: besideTests)
            ? besideTests : packageRoot + "/.build/debug/officer-files"
    }

    private static let spawnLock = NSLock()

    /// Runs `body`, which starts a child process, while no other test starts one.
    ///
    /// Pipe ends are inherited by every child forked while they are open in this process. A long-lived server
    /// started while a CLI run's pipes were being set up kept the write end of that run's stdout, so the run never
    /// saw end-of-file and the test hung. Every spawn in the tests goes through here, with the pipe ends that
    /// belong to the child closed in this process before the lock is released.
    public static func spawning<T>(_ body: () throws -> T) rethrows -> T {
        try spawnLock.withLock(body)
    }

    /// A write to a child that already ended fails with EPIPE instead of ending the test process (once).
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// Runs `executable` with `arguments`, feeding `stdin`, and waits for it.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, stdin: String? = nil,
        currentDirectory: String? = nil
    ) throws -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        let (output, errors, input) = try spawning { () throws -> (Pipe, Pipe, Pipe) in
            let output = Pipe(), errors = Pipe(), input = Pipe()
            // This side's ends stay out of any other child (a server another test starts meanwhile would hold the
            // stdin pipe's write end open, and the child would wait for an end of its input that never comes).
            for end in [input.fileHandleForWriting, output.fileHandleForReading, errors.fileHandleForReading] {
                _ = fcntl(end.fileDescriptor, F_SETFD, FD_CLOEXEC)
            }
            process.standardOutput = output
            process.standardError = errors
            process.standardInput = input
            try process.run()
            return (output, errors, input)
        }
        let group = DispatchGroup()
        // The input is written beside the reading of the output, outside the spawn lock: a child that writes much
        // before it reads all of its input must not wait on a full pipe while this waits on it, nor hold up the
        // other tests' spawns.
        group.enter()
        ignoreBrokenPipes
        DispatchQueue.global().async {
            // A child that ended before reading its input is its own failure to report, not this process's end.
            if let stdin { try? input.fileHandleForWriting.write(contentsOf: Data(stdin.utf8)) }
            try? input.fileHandleForWriting.close()
            group.leave()
        }
        // Read both pipes concurrently so a chatty child cannot block on a full pipe.
        nonisolated(unsafe) var errorData = Data()
        group.enter()
        DispatchQueue.global().async {
            errorData = errors.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return ProcessResult(
            status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
            stderr: String(decoding: errorData, as: UTF8.self))
    }

    /// `run` off Swift's cooperative thread pool, for async tests.
    public static func runDetached(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, stdin: String? = nil,
        currentDirectory: String? = nil
    ) async throws -> ProcessResult {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    with: Result {
                        try run(
                            executable, arguments, environment: environment, stdin: stdin,
                            currentDirectory: currentDirectory)
                    })
            }
        }
    }

    /// Lowercase hex SHA-256 of a file, off Swift's cooperative pool (for large files in async tests).
    public static func sha256Detached(of path: String) async throws -> String {
        String(try await runDetached("/usr/bin/openssl", ["dgst", "-sha256", "-r", path]).stdout.prefix(64))
    }

    /// Lowercase hex SHA-256 of a file, computed outside the code under test by the `openssl` command (with this
    /// CPU's SHA instructions: coreutils' `sha256sum` took five times as long, 19 s of CPU a suite run).
    public static func sha256(of path: String) throws -> String {
        let result = try run("/usr/bin/openssl", ["dgst", "-sha256", "-r", path])
        return String(result.stdout.prefix(64))
    }
}
