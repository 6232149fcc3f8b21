import FileModel
import Foundation
import TestSupport
import Testing

/// A watch's catch-up after a restart, end to end: it obeys the live path's settle rule (a file still being
/// written never reaches the server partial, and goes up once, whole), re-sends nothing the server has, and
/// with `--delete-after-upload` removes what it sent once the server's SHA-256 matched.
@Suite struct WatchCatchUpTests {
    let cli = CLIRunner()
    let work = TemporaryDirectory(prefix: "watch-catch-up", inMemory: true)

    /// Starts `watch --json --settle 1 ... LOCAL officer:/Camera`, its events going to `log`, its errors to `errors`.
    func startWatch(_ local: String, log: String, errors: String? = nil, _ extra: [String] = []) throws -> Process {
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ProcessRunner.cliPath)
        process.arguments = ["--json", "watch", "--settle", "1"] + extra + [local, "officer:/Camera"]
        process.environment = cli.environment()
        process.standardOutput = FileHandle(forWritingAtPath: log)
        if let errors {
            _ = FileManager.default.createFile(atPath: errors, contents: nil)
            process.standardError = FileHandle(forWritingAtPath: errors)
        } else {
            process.standardError = FileHandle.nullDevice
        }
        try ProcessRunner.spawning { try process.run() }
        return process
    }

    /// The events of a watch's log, one JSON object per line.
    static func events(_ log: String) -> [[String: String]] {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        // Every value as text, so a test compares `uploaded` with "0" and paths alike.
        return text.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?.mapValues { "\($0)" }
        }
    }

    static func size(_ path: String) -> Int64? {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : nil
    }

    /// Four files are being appended to (two reopened for each append, two held open) while the watcher is
    /// stopped and started again: the second run's catch-up sends none of them (nor the 20 files the first run
    /// sent), a poll every 2 ms never sees one of them on the server short of its final size, and each goes up
    /// once, by the live path, whole. The writers go on until the second run has caught up, however long a
    /// loaded machine takes to start it: files that stopped growing before its catch-up are settled, and sending
    /// them then would be right.
    @Test func aRestartSendsNothingHalfWrittenAndNothingTwice() async throws {
        try await HeavyWork.shared.run { try await restartWhileFilesGrow() }
    }

    func restartWhileFilesGrow() async throws {
        let server = try await ReferenceServer.start(inMemory: true)
        #expect(try await cli.login(server).status == 0)
        let local = work.file("DCIM")
        for index in 0..<20 { try work.write("DCIM/done-\(index).txt", "written before the first run \(index)\n") }
        let camera = server.root.file("Camera")
        let firstLog = work.file("watch-1.log")
        let first = try startWatch(local, log: firstLog)
        #expect(await Eventually.wait(timeout: 60) { Self.events(firstLog).contains { $0["type"] == "caught-up" } })
        #expect(
            await Eventually.wait(timeout: 60) { (0..<20).allSatisfy { Self.size(camera + "/done-\($0).txt") != nil } })

        let chunk = Data(repeating: 0x5A, count: 64 << 10)
        let appends = 40
        let growing = (0..<4).map { "growing-\($0).bin" }
        // The server's copies, watched for a partial one (a 2 ms poll of its root): every size seen is kept and
        // compared with the final one once the writers are done.
        let seenOnServer = PartialLog()
        let watching = Flag()
        let monitor = Thread {
            Eventually.blocking(timeout: 1200, every: 0.002) {
                for name in growing {
                    if let size = Self.size(camera + "/" + name) { seenOnServer.add("\(name) \(size)") }
                }
                return watching.isSet
            }
        }
        monitor.start()
        defer { watching.set() }
        let finished = PartialLog()
        let secondCaughtUp = Flag()
        for (index, name) in growing.enumerated() {
            let path = local + "/" + name
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            let held = index >= 2 ? FileHandle(forWritingAtPath: path) : nil
            let afterCatchUp = LockedValue(0)
            SlowWriter.start(pause: 0.1) { written in
                let handle = held ?? FileHandle(forWritingAtPath: path)
                handle?.seekToEndOfFile()
                handle?.write(chunk)
                if held == nil { try? handle?.close() }
                if secondCaughtUp.isSet { afterCatchUp.withLock { $0 += 1 } }
                return written + 1 < appends || afterCatchUp.current < 5
            } done: {
                try? held?.close()
                finished.add(name)
            }
        }

        // A quarter into the writing (each file ten appends long), the watcher is stopped, by the polling thread
        // (the test body waits for a thread of the shared pool, which a loaded machine may hold for seconds).
        let watcher = first
        let inTime = Flag()
        #expect(
            await Eventually.wait(
                timeout: 600,
                { growing.allSatisfy { (Self.size(local + "/" + $0) ?? 0) >= Int64(10 * chunk.count) } },
                then: {
                    if finished.entries.isEmpty { inTime.set() }
                    watcher.terminate()
                }))
        #expect(inTime.isSet, "the writers finished before the restart")
        first.waitUntilExit()
        let secondLog = work.file("watch-2.log")
        let second = try startWatch(local, log: secondLog)
        defer {
            second.terminate()
            second.waitUntilExit()
        }
        #expect(
            await Eventually.wait(
                timeout: 600, { Self.events(secondLog).contains { $0["type"] == "caught-up" } },
                then: { secondCaughtUp.set() }))
        #expect(await Eventually.wait(timeout: 600) { finished.entries.count == growing.count })
        let finalSizes = Dictionary(uniqueKeysWithValues: growing.map { ($0, Self.size(local + "/" + $0) ?? -1) })
        let whole = await Eventually.wait(timeout: 60) {
            growing.allSatisfy { Self.size(camera + "/" + $0) == finalSizes[$0] }
        }
        #expect(whole, "\(growing.map { Self.size(camera + "/" + $0) ?? -1 }) of \(finalSizes)")
        // Each file's last version went up by the live path, which then holds nothing of it: no later send can come
        // unless the file changes again (its writer is done).
        let lastVersionsSent = await Eventually.wait(timeout: 120) {
            let sent = Self.events(secondLog).filter { $0["type"] == "uploaded" }
            return growing.allSatisfy { name in
                sent.contains {
                    ($0["source"] ?? "").hasSuffix("/" + name) && $0["size"] == finalSizes[name].map(String.init)
                }
            }
        }
        #expect(lastVersionsSent, "\(Self.events(secondLog))")
        watching.set()

        let partials = seenOnServer.entries.filter { seen in
            let parts = seen.split(separator: " ")
            return Int64(parts[1]) != finalSizes[String(parts[0])]
        }
        #expect(partials.isEmpty, "partial copies on the server: \(partials.prefix(8))")
        for name in growing {
            #expect(
                try await ProcessRunner.sha256Detached(of: camera + "/" + name)
                    == (try await ProcessRunner.sha256Detached(of: local + "/" + name)), "\(name)")
        }
        let caughtUp = Self.events(secondLog).filter { $0["type"] == "caught-up" }
        #expect(caughtUp.map { $0["uploaded"] } == ["0"], "the restart's catch-up sent something: \(caughtUp)")
        let sends = (Self.events(firstLog) + Self.events(secondLog)).filter { $0["type"] == "uploaded" }.compactMap {
            $0["source"] ?? $0["path"]
        }
        for name in growing {
            #expect(
                sends.filter { $0.hasSuffix("/" + name) }.count == 1,
                "\(name) sent \(sends.filter { $0.hasSuffix("/" + name) }.count) times")
        }
    }

    /// `--delete-after-upload`: what was there before the watch started (sent by its catch-up) is removed once
    /// the server holds exactly those bytes, as a file that appears while it runs is; the server keeps them all.
    @Test func deleteAfterUploadRemovesWhatTheCatchUpSent() async throws {
        let server = try await ReferenceServer.start(inMemory: true)
        #expect(try await cli.login(server).status == 0)
        let local = work.file("DCIM")
        var contents: [String: String] = [:]
        for index in 0..<10 {
            contents["before-\(index).txt"] = "there before the watch \(index)\n"
            try work.write("DCIM/before-\(index).txt", contents["before-\(index).txt"]!)
        }
        let log = work.file("watch.log")
        let watcher = try startWatch(local, log: log, ["--delete-after-upload"])
        defer {
            watcher.terminate()
            watcher.waitUntilExit()
        }
        #expect(await Eventually.wait(timeout: 60) { Self.events(log).contains { $0["type"] == "caught-up" } })
        contents["later.txt"] = "written while it watched\n"
        try work.write("DCIM/later.txt", contents["later.txt"]!)
        let emptied = await Eventually.wait(timeout: 60) {
            ((try? FileManager.default.contentsOfDirectory(atPath: local)) ?? ["?"]).isEmpty
        }
        #expect(emptied, "left: \(((try? FileManager.default.contentsOfDirectory(atPath: local)) ?? []).sorted())")
        for (name, text) in contents {
            #expect(
                (try? String(contentsOfFile: server.root.file("Camera/" + name), encoding: .utf8)) == text, "\(name)")
        }
        #expect(
            Set(Self.events(log).filter { $0["type"] == "deleted" }.compactMap { $0["source"] ?? $0["path"] })
                == Set(contents.keys.map { local + "/" + $0 }))
    }
}

/// Lines noted from another thread.
final class PartialLog: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func add(_ line: String) { lock.withLock { if lines.count < 100, !lines.contains(line) { lines.append(line) } } }
    var entries: [String] { lock.withLock { lines } }
}

/// A flag set once, read from any thread.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
