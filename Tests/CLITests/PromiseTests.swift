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
}
