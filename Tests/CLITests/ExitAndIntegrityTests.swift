import Foundation
import TestSupport
import Testing

/// Exit codes the README promises, downloads that never save damaged or stale bytes, and an action that never
/// replaces a user's file unasked: each found wrong by a new user and a reliability engineer.
@Suite struct ExitAndIntegrityTests {
    let server: ReferenceServer
    let cli = CLIRunner()
    let work = TemporaryDirectory(prefix: "exit-work")

    init() async throws {
        server = try await ReferenceServer.start()
        #expect(try await cli.login(server).status == 0)
    }

    func random(_ name: String, bytes: Int) throws -> String {
        let data = TestBytes.random(bytes)
        return try server.root.write(name, data)
    }

    /// `cat big | head -c 10` ends quietly with SIGPIPE's status, as git and curl do (it was exit 8 and
    /// "<stdout>: Broken pipe").
    @Test func aClosedPipeEndsTheRunQuietly() async throws {
        _ = try random("big.bin", bytes: 8 << 20)
        let script = "\"$0\" cat officer:/big.bin 2>\"$1\" | head -c 10 >/dev/null; echo \"${PIPESTATUS[0]}\""
        let errors = work.file("errors.txt")
        let piped = try await ProcessRunner.runDetached(
            "/bin/bash", ["-c", script, ProcessRunner.cliPath, errors], environment: cli.environment())
        #expect(
            piped.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "141", "\(piped.stdout) \(piped.stderr)")
        #expect(try String(contentsOfFile: errors, encoding: .utf8) == "")
    }

    /// Offline work that needs the server is refused with 9, as the README says (it was a usage error, 2).
    @Test func offlineWorkThatNeedsTheServerExitsNine() async throws {
        #expect(try await cli.run(["ls", "officer:/"]).status == 0)
        let offline = try await cli.run(["--offline", "ls", "-R", "officer:/"])
        #expect(
            offline.status == 9 && offline.stderr.contains("needs the server"), "\(offline.status) \(offline.stderr)")
    }

    /// A server time of 1700000000.123 is 1700000000.123 here (it was truncated to .122).
    @Test func aDownloadKeepsTheServersMillisecondsExactly() async throws {
        let file = try server.root.write("timed.txt", "timed")
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_700_000_000.123)], ofItemAtPath: file)
        let target = work.file("timed.txt")
        #expect(try await cli.run(["get", "officer:/timed.txt", target]).status == 0)
        var info = stat()
        #expect(stat(target, &info) == 0)
        #expect(info.st_mtim.tv_sec == 1_700_000_000 && info.st_mtim.tv_nsec == 123_000_000, "\(info.st_mtim)")
        let shown = try await cli.run(["stat", "officer:/timed.txt"])
        #expect(shown.stdout.contains("Modified: 2023-11-14 22:13 UTC (2023-11-14T22:13:20.123Z)"), "\(shown.stdout)")
    }

    /// The README's rule: commands that take only remote paths read a plain /path as officer:/path
    /// (`cat /plain.txt` said "give a remote path", `cache pin /plain.txt` "only officer: paths").
    @Test func plainPathsAreOfficerPathsForCatAndPin() async throws {
        _ = try server.root.write("plain.txt", "plain")
        let cat = try await cli.run(["cat", "/plain.txt"])
        #expect(cat.status == 0 && cat.stdout == "plain", "\(cat.stderr)")
        let pin = try await cli.run(["cache", "pin", "/plain.txt"])
        #expect(pin.status == 0 && pin.stdout.contains("Pinned officer:/plain.txt"), "\(pin.stdout)\(pin.stderr)")
        #expect(try await cli.run(["cache", "unpin", "/plain.txt"]).status == 0)
    }

    /// Through a proxy that flips one byte on the way down, `get` fetches the file once more and saves the
    /// server's bytes (it printed Saved, exit 0, one byte wrong).
    @Test func aDownloadDamagedOnTheWayIsFetchedAgainNotSaved() async throws {
        let original = try random("thirty.bin", bytes: 30_000_000)
        let proxy = try await startFaultProxy(
            target: "127.0.0.1:\(server.service.port)", ["--corrupt-at", "3000000", "--direction", "down"])
        defer { proxy.stop() }
        let through = CLIRunner()
        #expect(try await through.login(server, url: proxy.url).status == 0)
        let target = work.file("thirty.bin")
        let got = try await through.run(["-v", "--no-cache", "get", "officer:/thirty.bin", target])
        #expect(got.status == 0, "\(got.stderr.suffix(400))")
        #expect(
            got.stderr.contains("do not match the server's checksum"),
            "the damage went unseen: \(got.stderr.suffix(600))")
        #expect(
            try await ProcessRunner.sha256Detached(of: target) == (try await ProcessRunner.sha256Detached(of: original))
        )
    }

    /// A download that starts over because the file changed on the server ends with the new version's bytes
    /// and its time (it kept the old version's time, so the next sync saw a change).
    @Test func aDownloadRestartedByAChangeTakesTheNewVersionsTime() async throws {
        _ = try random("moving.bin", bytes: 8 << 20)
        // Every connection is cut after 1 MB at 500 kB/s: the old version needs nine connections and 16 s, so it is
        // replaced long before it could arrive whole, and the next range asked for finds the change.
        let proxy = try await startFaultProxy(
            target: "127.0.0.1:\(server.service.port)",
            ["--reset-after", "1000000", "--throttle", "500000", "--direction", "down"])
        defer { proxy.stop() }
        let through = CLIRunner()
        #expect(try await through.login(server, url: proxy.url).status == 0)
        // The new version is ready before the download starts, and put in place by the polling thread the moment
        // bytes of the old one land: a test body that waits for a thread of the shared pool cannot be late.
        let replacement = work.file("replacement.bin")
        try TestBytes.random(2 << 20).write(
            to: URL(fileURLWithPath: replacement))
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_700_000_000.5)], ofItemAtPath: replacement)
        let served = server.root.file("moving.bin")
        let target = work.file("moving.bin")
        let first = try through.launchCapturingErrors(["--no-cache", "get", "officer:/moving.bin", target])
        let folder = work.path
        let replaced = await Eventually.wait(
            timeout: 600,
            {
                try FileManager.default.contentsOfDirectory(atPath: folder).contains { name in
                    name.hasPrefix(".moving.bin")
                        && ((try? FileManager.default.attributesOfItem(atPath: folder + "/" + name)[.size] as? Int) ?? 0)
                            > 0
                }
            }, then: { _ = rename(replacement, served) })
        #expect(replaced && !FileManager.default.fileExists(atPath: replacement))
        let errors = first.stderr()
        #expect(first.process.terminationStatus == 0, "\(errors)")
        #expect(
            try await ProcessRunner.sha256Detached(of: target)
                == (try await ProcessRunner.sha256Detached(of: server.root.file("moving.bin"))), "\(errors)")
        var info = stat()
        #expect(stat(target, &info) == 0)
        #expect(info.st_mtim.tv_sec == 1_700_000_000 && info.st_mtim.tv_nsec == 500_000_000, "\(info.st_mtim)")
    }

    /// `tts officer:/x.md --no-download --refresh` replaced an unrelated `x.wav` beside it: a user's file is
    /// replaced only with --force, as put and get do.
    @Test func anActionReplacesAUsersFileOnlyWithForce() async throws {
        _ = try server.root.write("Kinds/notes.md", "Hello there, this is a note.\n")
        let unrelated = try server.root.write("Kinds/notes.wav", "mine, not a recording")
        let refreshed = try await cli.run(["tts", "officer:/Kinds/notes.md", "--no-download", "--refresh"])
        #expect(
            refreshed.status == 5 && refreshed.stderr.contains("officer:/Kinds/notes.wav"),
            "\(refreshed.status) \(refreshed.stderr)")
        #expect(try String(contentsOfFile: unrelated, encoding: .utf8) == "mine, not a recording")
        let forced = try await cli.run(["tts", "officer:/Kinds/notes.md", "--no-download", "--refresh", "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect((try? FileManager.default.attributesOfItem(atPath: unrelated)[.size] as? Int).map { $0 > 1000 } == true)
    }
}
