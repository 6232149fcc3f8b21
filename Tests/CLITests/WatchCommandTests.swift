import Foundation
import TestSupport
import Testing

/// `watch` end to end: files created while it runs, one written slowly, a folder created and filled, a file
/// deleted before it settled, the server stopped for 10 s, the watcher SIGKILLed and restarted — and the
/// server ends with exactly the files, each byte for byte.
@Suite struct WatchCommandTests {
    let cli = CLIRunner()
    let work = TemporaryDirectory(prefix: "watch-work")

    /// Starts `watch` with its stdout (NDJSON events) going to `log`.
    func startWatch(_ local: String, log: String) throws -> Process {
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ProcessRunner.cliPath)
        process.arguments = ["--json", "watch", "--settle", "1", local, "officer:/Camera"]
        process.environment = cli.environment()
        process.standardOutput = FileHandle(forWritingAtPath: log)
        process.standardError = FileHandle.nullDevice
        try ProcessRunner.spawning { try process.run() }
        return process
    }

    func write(_ path: String, _ text: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    func serverFiles(_ root: String) -> [String] {
        let all = (try? FileManager.default.subpathsOfDirectory(atPath: root)) ?? []
        return all.filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory)
                && !isDirectory.boolValue
                && !path.split(separator: "/").contains { $0.hasPrefix(".") }
        }.sorted()
    }

    @Test func theServerEndsWithExactlyTheFilesWhateverHappensMeanwhile() async throws {
        try await HeavyWork.shared.run { try await watchThroughEverything() }
    }

    func watchThroughEverything() async throws {
        let root = TemporaryDirectory(prefix: "watch-root")
        let state = TemporaryDirectory(prefix: "watch-state")
        let port = try NginxServer.freePort()
        var server = try await ReferenceServer.start(root: root, state: state, port: port)
        #expect(try await cli.login(server).status == 0)
        let local = work.file("DCIM")
        var expected: Set<String> = []
        for index in 0..<10 {
            try write(local + "/before/\(index).txt", "taken before the watch \(index)\n")
            expected.insert("before/\(index).txt")
        }
        let firstLog = work.file("watch-1.log")
        var watcher = try startWatch(local, log: firstLog)
        let camera = root.file("Camera")
        // The catch-up sends what was there before.
        #expect(
            await Eventually.wait(timeout: 60) { serverFiles(camera).count == 10 }, "caught up: \(serverFiles(camera))")

        // One file written slowly (an append every 0.5 s for 10 s: never still for the settle time).
        let slow = local + "/slow.log"
        SlowWriter.start(pause: 0.5, maxSteps: 20) { line in
            if let handle = FileHandle(forWritingAtPath: slow)
                ?? {
                    _ = FileManager.default.createFile(atPath: slow, contents: nil)
                    return FileHandle(forWritingAtPath: slow)
                }()
            {
                handle.seekToEndOfFile()
                handle.write(Data("line \(line) of the slow file\n".utf8))
                try? handle.close()
            }
            return true
        }
        expected.insert("slow.log")
        // 200 files made while it runs: 130 here, 20 in a new folder, 50 while the server is down.
        // A file made before the 150 others and deleted after them: the watcher sees it, and it never settles.
        // Its writer holds it open until it is gone, so however long a loaded machine takes over the 150 (past the
        // 1 s settle of a closed file), it would need the open file's 60 s to settle.
        _ = FileManager.default.createFile(atPath: local + "/doomed.tmp", contents: nil)
        let doomed = try #require(FileHandle(forWritingAtPath: local + "/doomed.tmp"))
        try doomed.write(contentsOf: Data("deleted before it settled\n".utf8))
        for index in 0..<130 {
            try write(local + "/shot-\(index).jpg", String(repeating: "photo \(index) ", count: 100 + index))
            expected.insert("shot-\(index).jpg")
        }
        for index in 0..<20 {
            try write(local + "/2026/trip/\(index).txt", "in a new folder \(index)\n")
            expected.insert("2026/trip/\(index).txt")
        }
        try FileManager.default.removeItem(atPath: local + "/doomed.tmp")
        try doomed.close()

        // The server goes away until the watcher has found it gone and waits; files made meanwhile wait too.
        #expect(await Eventually.wait(timeout: 60) { serverFiles(camera).count >= 60 })
        server.service.stop()
        for index in 0..<50 {
            try write(local + "/offline-\(index).txt", "made while the server was down \(index)\n")
            expected.insert("offline-\(index).txt")
        }
        let waiting = await Eventually.wait(timeout: 60) {
            ((try? String(contentsOfFile: firstLog, encoding: .utf8)) ?? "").contains("\"type\":\"waiting\"")
        }
        #expect(waiting, "the watcher never said it waits for the server")
        server = try await ReferenceServer.start(root: root, state: state, port: port)

        // The watcher is killed; files made while nothing watches go up with the next run's catch-up.
        #expect(
            await Eventually.wait(timeout: 90) {
                serverFiles(camera).contains("offline-49.txt") || serverFiles(camera).count > 180
            })
        kill(watcher.processIdentifier, SIGKILL)
        watcher.waitUntilExit()
        for index in 0..<50 {
            try write(local + "/unwatched-\(index).txt", "made while nothing watched \(index)\n")
            expected.insert("unwatched-\(index).txt")
        }
        let secondLog = work.file("watch-2.log")
        watcher = try startWatch(local, log: secondLog)
        defer {
            watcher.terminate()
            watcher.waitUntilExit()
        }
        let wanted = expected
        let done = await Eventually.wait(timeout: 120) { Set(serverFiles(camera)) == wanted }
        #expect(
            done,
            "missing: \(expected.subtracting(serverFiles(camera)).sorted().prefix(10)), extra: \(Set(serverFiles(camera)).subtracting(expected).sorted())"
        )
        for name in expected.sorted() {
            #expect(
                try await ProcessRunner.sha256Detached(of: camera + "/" + name)
                    == (try await ProcessRunner.sha256Detached(of: local + "/" + name)), "\(name)")
        }
        // The slow file went up once, whole (no partial version was ever sent by the watch).
        let events = [firstLog, secondLog].compactMap { try? String(contentsOfFile: $0, encoding: .utf8) }.joined()
        let slowUploads = events.split(separator: "\n").filter {
            $0.contains("\"uploaded\"") && $0.contains("slow.log")
        }
        #expect(slowUploads.count <= 1, "\(slowUploads)")
        #expect(try String(contentsOfFile: camera + "/slow.log", encoding: .utf8).split(separator: "\n").count == 20)
        #expect(events.contains("\"waiting\""), "the watch said it waited for the server")
        _ = server
    }
}
