import Foundation
import TestSupport
import Testing

/// The README's promises and results a new user found wrong, each run as the user runs it.
@Suite struct PromiseTests {
    let server: ReferenceServer
    let cli = CLIRunner()
    let work = TemporaryDirectory(prefix: "promise-work")

    init() async throws {
        server = try await ReferenceServer.start()
        #expect(try await cli.login(server).status == 0)
    }

    func photo(_ path: String, width: Int, height: Int, format: String = "jpg") throws -> String {
        let target = work.file(path)
        try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let noise = work.file("noise-\(UUID().uuidString).v")
        let result = try ProcessRunner.run("/usr/bin/vips", ["black", noise, String(width), String(height), "--bands", "3"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try ProcessRunner.run("/usr/bin/vips", ["copy", noise, target]).status == 0)
        unlink(noise)
        return target
    }

    func width(_ path: String) throws -> String {
        try ProcessRunner.run("/usr/bin/vipsheader", ["-f", "width", path]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The camera-upload example: photos that arrive while `watch --resize` runs go up prepared (they were
    /// refused as "a '/' in the name").
    @Test func watchWithResizeUploadsPhotosThatArrive() async throws {
        let camera = work.file("camera")
        try FileManager.default.createDirectory(atPath: camera, withIntermediateDirectories: true)
        let log = work.file("watch.log")
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let watch = Process()
        watch.executableURL = URL(fileURLWithPath: ProcessRunner.cliPath)
        watch.arguments = ["--json", "watch", "--settle", "0.3", "--resize=800", camera, "officer:/Camera"]
        watch.environment = cli.environment()
        watch.standardOutput = FileHandle(forWritingAtPath: log)
        watch.standardError = FileHandle(forWritingAtPath: log)
        try ProcessRunner.spawning { try watch.run() }
        defer { if watch.isRunning { watch.terminate() } }
        #expect(await Eventually.wait(timeout: 30) { (try? String(contentsOfFile: log, encoding: .utf8))?.contains("caught-up") ?? false })
        let arrived = try photo("staging/IMG_0001.jpg", width: 2000, height: 1500)
        try FileManager.default.createDirectory(atPath: camera + "/2026/12", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: arrived, toPath: camera + "/2026/12/IMG_0001.jpg")
        let uploaded = server.root.file("Camera/2026/12/IMG_0001.jpg")
        #expect(await Eventually.wait(timeout: 60) { FileManager.default.fileExists(atPath: uploaded) },
                "\((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        #expect(try width(uploaded) == "800")
        let events = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(!events.contains("\"type\":\"failed\""), "\(events)")
    }

    /// `--resize=best-effort` sends a file named like an image whose bytes are no image, unchanged, with a
    /// warning; in `sync --resize=best-effort --delete` it no longer blocks the deletions.
    @Test func bestEffortSendsWhatItCannotPrepare() async throws {
        let fake = try work.write("photos/fake.jpg", "this is no jpeg at all\n")
        _ = try photo("photos/real.jpg", width: 1600, height: 1200)
        let put = try await cli.run(["put", "-p", "--resize=best-effort", fake, "officer:/Up/"])
        #expect(put.status == 0 && put.stderr.contains("uploading it unchanged"), "\(put.stderr)")
        #expect(try ProcessRunner.sha256(of: server.root.file("Up/fake.jpg")) == (try ProcessRunner.sha256(of: fake)))

        _ = try server.root.write("Mirror/gone.txt", "remove me\n")
        let sync = try await cli.run(["sync", "--resize=best-effort", "--delete", work.file("photos"), "officer:/Mirror"])
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(!FileManager.default.fileExists(atPath: server.root.file("Mirror/gone.txt")))
        #expect(try ProcessRunner.sha256(of: server.root.file("Mirror/fake.jpg")) == (try ProcessRunner.sha256(of: fake)))
        #expect(FileManager.default.fileExists(atPath: server.root.file("Mirror/real.jpg")))
        // The originals stay: a file sent as it is was once removed as if it were a prepared copy.
        #expect(FileManager.default.fileExists(atPath: fake) && FileManager.default.fileExists(atPath: work.file("photos/real.jpg")))
    }

    /// `cat` and `archive cat` on a terminal show a server's escape sequences as text; into a pipe the bytes stay
    /// exact.
    @Test func catEscapesControlBytesOnATerminalOnly() async throws {
        let hostile = "plain \u{1B}[31mRED\u{1B}[0m and \u{1B}]0;owned\u{07} end\n"
        _ = try server.root.write("colour.txt", hostile)
        _ = try work.write("inside/colour.txt", hostile)
        #expect(try ProcessRunner.run("/usr/bin/bsdtar", ["-a", "-cf", work.file("a.zip"), "-C", work.file("inside"), "colour.txt"]).status == 0)
        let piped = try await cli.run(["cat", "officer:/colour.txt"])
        #expect(piped.status == 0 && piped.stdout == hostile)
        for command in [["cat", "officer:/colour.txt"], ["archive", "cat", work.file("a.zip"), "colour.txt"]] {
            let terminal = try await TerminalSession.start([ProcessRunner.cliPath] + command, environment: cli.environment())
            let screen = try await terminal.wait(for: "EXIT=", timeout: 30)
            await terminal.stop()
            let shown = screen.joined(separator: "\n")
            #expect(shown.contains(#"plain \u001b[31mRED\u001b[0m and \u001b]0;owned\u0007 end"#) && shown.contains("EXIT=0"), "\(command): \(shown)")
        }
    }

    /// A just-pinned file's facts offline come from its cached copy (it said "not in the cache").
    @Test func offlineInfoOfAPinnedFile() async throws {
        _ = try server.root.write("Docs/notes.md", "# notes\nsecond line\n")
        #expect(try await cli.run(["cache", "pin", "officer:/Docs/notes.md"]).status == 0)
        let info = try await cli.run(["--offline", "info", "officer:/Docs/notes.md"])
        #expect(info.status == 0 && info.stdout.contains("Text: 2 lines") && info.stdout.contains("Path: officer:/Docs/notes.md"), "\(info.stdout)\(info.stderr)")
    }

    /// Names over 255 bytes are refused before any request (exit 2), for every command that creates one; the
    /// server never sees them (it answered 500, exit 7).
    @Test func namesTooLongAreRefusedBeforeSending() async throws {
        _ = try server.root.write("Docs/a.txt", "a\n")
        let long = String(repeating: "n", count: 256)
        for command in [
            ["mkdir", "officer:/\(long)"], ["mkdir", "-p", "officer:/Docs/\(long)/deeper"], ["mv", "officer:/Docs/a.txt", "officer:/Docs/\(long)"],
            ["cp", "officer:/Docs/a.txt", "officer:/Docs/\(long)"], ["put", work.file("x"), "officer:/Docs/\(long)"],
        ] {
            if command[0] == "put" { _ = try work.write("x", "x\n") }
            let result = try await cli.run(command)
            #expect(result.status == 2 && result.stderr.contains("a name longer than 255 bytes"), "\(command[0]): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.count < 200, "\(result.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: server.root.file("Docs")) == ["a.txt"])
    }

    /// `info A B C` prints what it found for each path, then fails for the one it could not read.
    @Test func infoOfSeveralPrintsEachThenFails() async throws {
        _ = try server.root.write("Docs/a.txt", "a\n")
        _ = try server.root.write("Docs/c.txt", "c\n")
        let plain = try await cli.run(["info", "officer:/Docs/a.txt", "officer:/Docs/missing.txt", "officer:/Docs/c.txt"])
        #expect(plain.status == 4 && plain.stdout.contains("officer:/Docs/a.txt") && plain.stdout.contains("officer:/Docs/c.txt"), "\(plain.stdout)")
        #expect(plain.stderr.contains("officer:/Docs/missing.txt: no such file or folder"), "\(plain.stderr)")
        let json = try await cli.run(["--json", "info", "officer:/Docs/a.txt", "officer:/Docs/missing.txt", "officer:/Docs/c.txt"])
        #expect(json.status == 4 && json.stdout.split(separator: "\n").count == 2, "\(json.stdout)")
    }

    /// The queue refuses a change that contradicts one it holds, at once, instead of failing it at replay.
    @Test func theQueueRefusesContradictoryChanges() async throws {
        _ = try server.root.write("Docs/b.txt", "b\n")
        #expect(try await cli.run(["ls", "officer:/Docs"]).status == 0)
        #expect(try await cli.run(["--offline", "rm", "--queue", "officer:/Docs/b.txt"]).status == 0)
        let move = try await cli.run(["--offline", "mv", "--queue", "officer:/Docs/b.txt", "officer:/Docs/c.txt"])
        #expect(move.status == 9 && move.stderr.contains("officer:/Docs/b.txt: the queue already holds 'rm officer:/Docs/b.txt'"), "\(move.stderr)")
        #expect(try await cli.run(["--offline", "mkdir", "--queue", "officer:/Docs/New"]).status == 0)
        let again = try await cli.run(["--offline", "mkdir", "--queue", "officer:/Docs/New"])
        #expect(again.status == 9, "\(again.stderr)")
        let listed = try await cli.run(["--json", "queue", "list"])
        #expect(listed.stdout.split(separator: "\n").count == 2, "\(listed.stdout)")
        #expect(try await cli.run(["queue", "run"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: server.root.file("Docs/b.txt")) && FileManager.default.fileExists(atPath: server.root.file("Docs/New")))
    }

    /// One zip has one label, read here or on the server (a zip whose first member needs version 1.0 was
    /// `ZIP 1.0` locally and `ZIP 2.0` remotely).
    @Test func aZipHasOneLabelHereAndThere() async throws {
        let zip = work.file("old.zip")
        let script = """
            import zipfile, sys
            with zipfile.ZipFile(sys.argv[1], 'w') as z:
                info = zipfile.ZipInfo('stored.txt'); info.extract_version = 10; info.create_version = 10
                z.writestr(info, 'hello')
                z.writestr('packed.txt', 'x' * 1000, compress_type=zipfile.ZIP_DEFLATED)
            """
        #expect(try ProcessRunner.run("/usr/bin/python3", ["-c", script, zip]).status == 0)
        try FileManager.default.copyItem(atPath: zip, toPath: server.root.file("old.zip"))
        let here = try await cli.run(["archive", "ls", zip])
        let there = try await cli.run(["archive", "ls", "officer:/old.zip"])
        let label = { (text: String) in text.split(separator: "\n").last.map(String.init) ?? "" }
        #expect(here.status == 0 && label(here.stdout).hasPrefix("ZIP: 2 files"), "\(here.stdout)")
        #expect(label(here.stdout) == label(there.stdout), "\(here.stdout) \(there.stdout)")
    }

    /// `transcode` checks the kind of the file and its destination before it starts a job bound to fail.
    @Test func transcodeRefusesJobsBoundToFail() async throws {
        _ = try server.root.write("Media/notes.txt", "not a video\n")
        _ = try server.root.write("Media/clip.mp4", "taken\n")
        let video = server.root.file("Media/clip.mkv")
        #expect(try ProcessRunner.run("/usr/bin/ffmpeg", [
            "-nostdin", "-y", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=duration=1:size=160x120:rate=10", "-c:v", "mpeg4", video,
        ]).status == 0)
        let text = try await cli.run(["transcode", "officer:/Media/notes.txt"])
        #expect(text.status == 9 && text.stderr.contains("officer:/Media/notes.txt: is not a video (text/plain)"), "\(text.stderr)")
        let taken = try await cli.run(["transcode", "officer:/Media/clip.mkv"])
        #expect(taken.status == 5 && taken.stderr.contains("officer:/Media/clip.mp4: already exists (use --force to replace it)"), "\(taken.stderr)")
        let named = try await cli.run(["transcode", "-o", "officer:/Media/notes.txt", "officer:/Media/clip.mkv"])
        #expect(named.status == 5 && named.stderr.contains("officer:/Media/notes.txt: already exists"), "\(named.stderr)")
        let jobs = try await cli.run(["--json", "jobs", "list"])
        #expect(jobs.stdout.isEmpty, "no job was started: \(jobs.stdout)")
        #expect(try String(contentsOfFile: server.root.file("Media/clip.mp4"), encoding: .utf8) == "taken\n")
    }

    /// `sync -n` refuses in its plan what the real run refuses (a name with a newline, an image --resize cannot
    /// prepare), and its summary says what would happen.
    @Test func aDryRunRefusesWhatTheRunRefuses() async throws {
        _ = try work.write("tree/ok.txt", "ok\n")
        _ = try work.write("tree/bad\nname.txt", "bad\n")
        _ = try work.write("tree/sub/cut.jpg", Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 16]) + Data("JFIF".utf8) + Data(count: 200))
        _ = try server.root.write("Tree/extra.txt", "extra\n")
        let plan = try await cli.run(["sync", "-n", "--resize", "--delete", work.file("tree"), "officer:/Tree"])
        let run = try await cli.run(["sync", "--resize", "--delete", work.file("tree"), "officer:/Tree"])
        #expect(plan.status == run.status && run.status == 1, "\(plan.stderr)\n\(run.stderr)")
        let errors = { (text: String) in text.split(separator: "\n").filter { $0.hasPrefix("  ") }.map(String.init).sorted() }
        #expect(errors(plan.stderr) == errors(run.stderr) && errors(plan.stderr).count == 2, "\(plan.stderr)\n\(run.stderr)")
        #expect(plan.stderr.contains("would create 1 folder, would delete 0, 2 errors"), "\(plan.stderr)")
        #expect(!plan.stdout.contains("bad\nname"), "the plan's lines escape names: \(plan.stdout)")
    }
}
