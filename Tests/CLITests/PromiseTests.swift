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

    func photo(_ path: String, width: Int, height: Int) throws -> String {
        let target = work.file(path)
        try FileManager.default.createDirectory(
            atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let noise = work.file("noise-\(UUID().uuidString).v")
        let result = try ProcessRunner.run(
            "/usr/bin/vips", ["black", noise, String(width), String(height), "--bands", "3"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try ProcessRunner.run("/usr/bin/vips", ["copy", noise, target]).status == 0)
        unlink(noise)
        return target
    }

    func width(_ path: String) throws -> String {
        try ProcessRunner.run("/usr/bin/vipsheader", ["-f", "width", path]).stdout.trimmingCharacters(
            in: .whitespacesAndNewlines)
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
        #expect(
            await Eventually.wait(timeout: 30) {
                (try? String(contentsOfFile: log, encoding: .utf8))?.contains("caught-up") ?? false
            })
        let arrived = try photo("staging/IMG_0001.jpg", width: 2000, height: 1500)
        try FileManager.default.createDirectory(atPath: camera + "/2026/12", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: arrived, toPath: camera + "/2026/12/IMG_0001.jpg")
        let uploaded = server.root.file("Camera/2026/12/IMG_0001.jpg")
        #expect(
            await Eventually.wait(timeout: 60) { FileManager.default.fileExists(atPath: uploaded) },
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
        let sync = try await cli.run([
            "sync", "--resize=best-effort", "--delete", work.file("photos"), "officer:/Mirror",
        ])
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(!FileManager.default.fileExists(atPath: server.root.file("Mirror/gone.txt")))
        #expect(
            try ProcessRunner.sha256(of: server.root.file("Mirror/fake.jpg")) == (try ProcessRunner.sha256(of: fake)))
        #expect(FileManager.default.fileExists(atPath: server.root.file("Mirror/real.jpg")))
        // The originals stay: a file sent as it is was once removed as if it were a prepared copy.
        #expect(
            FileManager.default.fileExists(atPath: fake)
                && FileManager.default.fileExists(atPath: work.file("photos/real.jpg")))
    }

    /// `--resize=best-effort` never sends the GPS position `--resize` strips: a photo it cannot prepare goes up as
    /// it is only when it holds no position (or with --keep-metadata); one it prepares loses it as always.
    @Test func bestEffortNeverUploadsAPositionItWouldStrip() async throws {
        let whole = try photo("gps/whole.jpg", width: 3000, height: 2000)
        let tagged = try ProcessRunner.run(
            "/usr/bin/exiftool",
            [
                "-q", "-overwrite_original", "-GPSLatitude=48.8583", "-GPSLatitudeRef=N", "-GPSLongitude=2.2945",
                "-GPSLongitudeRef=W", whole,
            ])
        #expect(tagged.status == 0, "\(tagged.stderr)")
        let cut = try work.write("gps/cut.jpg", try Data(contentsOf: URL(fileURLWithPath: whole)).prefix(20000))
        func position(_ path: String) throws -> String {
            try ProcessRunner.run("/usr/bin/exiftool", ["-s3", "-GPSLatitude", path]).stdout.trimmingCharacters(
                in: .whitespacesAndNewlines)
        }
        #expect(try !position(cut).isEmpty, "the damaged copy still holds the position")

        // Damaged, or over the pixel limit: refused, as without best effort, saying what sends it anyway.
        for arguments in [[cut], ["--pixel-limit", "1000000", whole]] {
            let put = try await cli.run(["put", "-p", "--resize=best-effort"] + arguments + ["officer:/Up/"])
            #expect(put.status == 9, "\(arguments): \(put.stderr)")
            #expect(
                put.stderr.contains("not uploaded as it is: it may hold a GPS position")
                    && put.stderr.contains("--keep-metadata"), "\(put.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: server.root.file("Up/cut.jpg")))
        #expect(!FileManager.default.fileExists(atPath: server.root.file("Up/whole.jpg")))
        // Prepared as usual: the position goes.
        let resized = try await cli.run(["put", "-p", "--resize=best-effort", whole, "officer:/Up/"])
        #expect(resized.status == 0, "\(resized.stderr)")
        #expect(try position(server.root.file("Up/whole.jpg")).isEmpty)
        // Kept on purpose: it goes up as it is.
        let kept = try await cli.run(["put", "-p", "--resize=best-effort", "--keep-metadata", cut, "officer:/Up/"])
        #expect(kept.status == 0 && kept.stderr.contains("uploading it unchanged"), "\(kept.stderr)")
        #expect(try !position(server.root.file("Up/cut.jpg")).isEmpty)
        // sync and watch prepare through the same rule.
        let sync = try await cli.run(["sync", "--resize=best-effort", work.file("gps"), "officer:/Mirror"])
        #expect(
            sync.status != 0 && sync.stderr.contains("cut.jpg") && sync.stderr.contains("it may hold a GPS position"),
            "\(sync.stderr)")
        #expect(!FileManager.default.fileExists(atPath: server.root.file("Mirror/cut.jpg")))
        #expect(try position(server.root.file("Mirror/whole.jpg")).isEmpty)
    }

    /// `cat` and `archive cat` on a terminal show a server's escape sequences as text; into a pipe the bytes stay
    /// exact.
    @Test func catEscapesControlBytesOnATerminalOnly() async throws {
        let hostile = "plain \u{1B}[31mRED\u{1B}[0m and \u{1B}]0;owned\u{07} end\n"
        _ = try server.root.write("colour.txt", hostile)
        _ = try work.write("inside/colour.txt", hostile)
        #expect(
            try ProcessRunner.run(
                "/usr/bin/bsdtar", ["-a", "-cf", work.file("a.zip"), "-C", work.file("inside"), "colour.txt"]
            ).status == 0)
        let piped = try await cli.run(["cat", "officer:/colour.txt"])
        #expect(piped.status == 0 && piped.stdout == hostile)
        for command in [["cat", "officer:/colour.txt"], ["archive", "cat", work.file("a.zip"), "colour.txt"]] {
            let terminal = try await TerminalSession.start(
                [ProcessRunner.cliPath] + command, environment: cli.environment())
            let screen = try await terminal.wait(for: "EXIT=", timeout: 30)
            await terminal.stop()
            let shown = screen.joined(separator: "\n")
            #expect(
                shown.contains(#"plain \u001b[31mRED\u001b[0m and \u001b]0;owned\u0007 end"#)
                    && shown.contains("EXIT=0"), "\(command): \(shown)")
        }
    }

    /// A just-pinned file's facts offline come from its cached copy (it said "not in the cache").
    @Test func offlineInfoOfAPinnedFile() async throws {
        _ = try server.root.write("Docs/notes.md", "# notes\nsecond line\n")
        #expect(try await cli.run(["cache", "pin", "officer:/Docs/notes.md"]).status == 0)
        let info = try await cli.run(["--offline", "info", "officer:/Docs/notes.md"])
        #expect(
            info.status == 0 && info.stdout.contains("Text: 2 lines")
                && info.stdout.contains("Path: officer:/Docs/notes.md"), "\(info.stdout)\(info.stderr)")
    }

    /// Names over 255 bytes are refused before any request (exit 2), for every command that creates one; the
    /// server never sees them (it answered 500, exit 7).
    @Test func namesTooLongAreRefusedBeforeSending() async throws {
        _ = try server.root.write("Docs/a.txt", "a\n")
        let long = String(repeating: "n", count: 256)
        for command in [
            ["mkdir", "officer:/\(long)"], ["mkdir", "-p", "officer:/Docs/\(long)/deeper"],
            ["mv", "officer:/Docs/a.txt", "officer:/Docs/\(long)"],
            ["cp", "officer:/Docs/a.txt", "officer:/Docs/\(long)"], ["put", work.file("x"), "officer:/Docs/\(long)"],
        ] {
            if command[0] == "put" { _ = try work.write("x", "x\n") }
            let result = try await cli.run(command)
            #expect(
                result.status == 2 && result.stderr.contains("a name longer than 255 bytes"),
                "\(command[0]): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.count < 200, "\(result.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: server.root.file("Docs")) == ["a.txt"])
    }

    /// `info A B C` prints what it found for each path, then fails for the one it could not read.
    @Test func infoOfSeveralPrintsEachThenFails() async throws {
        _ = try server.root.write("Docs/a.txt", "a\n")
        _ = try server.root.write("Docs/c.txt", "c\n")
        let plain = try await cli.run([
            "info", "officer:/Docs/a.txt", "officer:/Docs/missing.txt", "officer:/Docs/c.txt",
        ])
        #expect(
            plain.status == 4 && plain.stdout.contains("officer:/Docs/a.txt")
                && plain.stdout.contains("officer:/Docs/c.txt"), "\(plain.stdout)")
        #expect(plain.stderr.contains("officer:/Docs/missing.txt: no such file or folder"), "\(plain.stderr)")
        let json = try await cli.run([
            "--json", "info", "officer:/Docs/a.txt", "officer:/Docs/missing.txt", "officer:/Docs/c.txt",
        ])
        #expect(json.status == 4 && json.stdout.split(separator: "\n").count == 2, "\(json.stdout)")
    }

    /// The queue refuses a change that contradicts one it holds, at once, instead of failing it at replay.
    @Test func theQueueRefusesContradictoryChanges() async throws {
        _ = try server.root.write("Docs/b.txt", "b\n")
        #expect(try await cli.run(["ls", "officer:/Docs"]).status == 0)
        #expect(try await cli.run(["--offline", "rm", "--queue", "officer:/Docs/b.txt"]).status == 0)
        let move = try await cli.run(["--offline", "mv", "--queue", "officer:/Docs/b.txt", "officer:/Docs/c.txt"])
        #expect(
            move.status == 9
                && move.stderr.contains("officer:/Docs/b.txt: the queue already holds `rm officer:/Docs/b.txt`"),
            "\(move.stderr)")
        #expect(try await cli.run(["--offline", "mkdir", "--queue", "officer:/Docs/New"]).status == 0)
        let again = try await cli.run(["--offline", "mkdir", "--queue", "officer:/Docs/New"])
        #expect(again.status == 9, "\(again.stderr)")
        let listed = try await cli.run(["--json", "queue", "list"])
        #expect(listed.stdout.split(separator: "\n").count == 2, "\(listed.stdout)")
        #expect(try await cli.run(["queue", "run"]).status == 0)
        #expect(
            !FileManager.default.fileExists(atPath: server.root.file("Docs/b.txt"))
                && FileManager.default.fileExists(atPath: server.root.file("Docs/New")))
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
        #expect(
            try ProcessRunner.run(
                "/usr/bin/ffmpeg",
                [
                    "-nostdin", "-y", "-loglevel", "error", "-f", "lavfi", "-i",
                    "testsrc=duration=1:size=160x120:rate=10", "-c:v", "mpeg4", video,
                ]
            ).status == 0)
        let text = try await cli.run(["transcode", "officer:/Media/notes.txt"])
        #expect(
            text.status == 9 && text.stderr.contains("officer:/Media/notes.txt: is not a video (text/plain)"),
            "\(text.stderr)")
        let taken = try await cli.run(["transcode", "officer:/Media/clip.mkv"])
        #expect(
            taken.status == 5
                && taken.stderr.contains("officer:/Media/clip.mp4: already exists (use --force to replace it)"),
            "\(taken.stderr)")
        let named = try await cli.run(["transcode", "-o", "officer:/Media/notes.txt", "officer:/Media/clip.mkv"])
        #expect(
            named.status == 5 && named.stderr.contains("officer:/Media/notes.txt: already exists"), "\(named.stderr)")
        let jobs = try await cli.run(["--json", "jobs", "list"])
        #expect(jobs.stdout.isEmpty, "no job was started: \(jobs.stdout)")
        #expect(try String(contentsOfFile: server.root.file("Media/clip.mp4"), encoding: .utf8) == "taken\n")
    }

    /// `sync -n` refuses in its plan what the real run refuses (a name with a newline, an image --resize cannot
    /// prepare), and its summary says what would happen.
    @Test func aDryRunRefusesWhatTheRunRefuses() async throws {
        _ = try work.write("tree/ok.txt", "ok\n")
        _ = try work.write("tree/bad\nname.txt", "bad\n")
        _ = try work.write(
            "tree/sub/cut.jpg", Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 16]) + Data("JFIF".utf8) + Data(count: 200))
        _ = try server.root.write("Tree/extra.txt", "extra\n")
        let plan = try await cli.run(["sync", "-n", "--resize", "--delete", work.file("tree"), "officer:/Tree"])
        let run = try await cli.run(["sync", "--resize", "--delete", work.file("tree"), "officer:/Tree"])
        #expect(plan.status == run.status && run.status == 1, "\(plan.stderr)\n\(run.stderr)")
        let errors = { (text: String) in
            text.split(separator: "\n").filter { $0.hasPrefix("  ") }.map(String.init).sorted()
        }
        #expect(
            errors(plan.stderr) == errors(run.stderr) && errors(plan.stderr).count == 2, "\(plan.stderr)\n\(run.stderr)"
        )
        #expect(plan.stderr.contains("would create 1 folder, would delete 0, 2 errors"), "\(plan.stderr)")
        #expect(!plan.stdout.contains("bad\nname"), "the plan's lines escape names: \(plan.stdout)")
    }

    func format(_ path: String) throws -> String {
        try ProcessRunner.run("/usr/bin/file", ["-b", "--mime-type", path]).stdout.trimmingCharacters(
            in: .whitespacesAndNewlines)
    }

    /// A prepared image's name and bytes agree: the output's extension chooses the format, a conflict with
    /// `--format` is refused, `--format keep` keeps TIFF and GIF, and transparency under JPEG goes onto white.
    @Test func preparedNamesAndBytesAgree() async throws {
        let opaque = try photo("in/photo.jpg", width: 800, height: 600)
        try FileManager.default.createDirectory(atPath: work.file("out"), withIntermediateDirectories: true)
        for (name, mime) in [
            ("x.png", "image/png"), ("x.webp", "image/webp"), ("x.tif", "image/tiff"), ("x.jpg", "image/jpeg"),
        ] {
            let result = try await cli.run(["image", "prepare", opaque, work.file("out/" + name)])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try format(work.file("out/" + name)) == mime, "\(name)")
        }
        let several = try await cli.run(["image", "prepare", opaque, opaque, work.file("one.jpg")])
        #expect(
            several.status == 2 && !FileManager.default.fileExists(atPath: work.file("one.jpg")), "\(several.stderr)")
        let conflict = try await cli.run(["image", "prepare", "--format", "jpeg", opaque, work.file("out/y.png")])
        #expect(
            conflict.status == 2
                && conflict.stderr.contains("y.png: its name says PNG, but the format asked for is JPEG"),
            "\(conflict.stderr)")

        let tiff = try photo("in/scan.tif", width: 3000, height: 2000)
        let gif = work.file("in/anim.gif")
        #expect(try ProcessRunner.run("/usr/bin/convert", ["-size", "3000x2000", "xc:red", gif]).status == 0)
        let kept = try await cli.run([
            "image", "prepare", "--format", "keep", "--max-edge", "1000", tiff, gif, work.file("kept"),
        ])
        #expect(kept.status == 0, "\(kept.stderr)")
        #expect(
            try format(work.file("kept/scan.tif")) == "image/tiff" && (try width(work.file("kept/scan.tif"))) == "1000")
        #expect(try format(work.file("kept/anim.gif")) == "image/gif")

        // put --resize --format jpeg of a transparent PNG uploads a JPEG named .jpg (it was a PNG, silently).
        let alpha = work.file("in/alpha.png")
        #expect(
            try ProcessRunner.run(
                "/usr/bin/convert",
                ["-size", "1200x900", "xc:none", "-fill", "blue", "-draw", "circle 600,450 600,100", alpha]
            ).status == 0)
        let put = try await cli.run(["put", "-p", "--resize=800", "--format", "jpeg", alpha, "officer:/Up/"])
        #expect(put.status == 0, "\(put.stderr)")
        #expect(try format(server.root.file("Up/alpha.jpg")) == "image/jpeg")
        #expect(!FileManager.default.fileExists(atPath: server.root.file("Up/alpha.png")))
        // Named by the user: the name's extension says the format.
        let named = try await cli.run(["put", "--resize=800", alpha, "officer:/Up/named.webp"])
        #expect(named.status == 0, "\(named.stderr)")
        #expect(try format(server.root.file("Up/named.webp")) == "image/webp")
    }

    /// Patterns in the last name of remote paths, for the commands that take several: quoted, as the README
    /// writes them; a pattern that matches nothing fails naming it, and nothing is done.
    @Test func remotePatternsExpandAgainstTheFolder() async throws {
        for name in ["a.jpg", "b.jpg", "c.png", ".hidden.jpg"] {
            _ = try server.root.write("Receipts/\(name)", "receipt \(name)\n")
        }
        let info = try await cli.run(["--json", "info", "officer:/Receipts/*.jpg"])
        let paths = info.stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["path"] as? String
        }
        #expect(
            info.status == 0 && paths == ["officer:/Receipts/a.jpg", "officer:/Receipts/b.jpg"],
            "\(info.stdout)\(info.stderr)")
        let out = work.file("got")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let get = try await cli.run(["get", "officer:/Receipts/[ab].jpg", out])
        #expect(get.status == 0, "\(get.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == ["a.jpg", "b.jpg"])
        let none = try await cli.run(["rm", "officer:/Receipts/*.gif"])
        #expect(none.status == 4 && none.stderr.contains("officer:/Receipts/*.gif: nothing matches"), "\(none.stderr)")
        let forced = try await cli.run(["rm", "-f", "officer:/Receipts/*.gif"])
        #expect(forced.status == 0 && forced.stderr.isEmpty, "rm -f of nothing is nothing: \(forced.stderr)")
        _ = try server.root.write("Receipts/fake [1].txt", "a real name with brackets\n")
        let literal = try await cli.run(["cat", "officer:/Receipts/fake [1].txt"])
        #expect(literal.status == 0 && literal.stdout == "a real name with brackets\n", "\(literal.stderr)")
        _ = try await cli.run(["rm", "officer:/Receipts/fake [1].txt"])
        let removed = try await cli.run(["rm", "officer:/Receipts/?.jpg"])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: server.root.file("Receipts")).sorted() == [
                ".hidden.jpg", "c.png",
            ])
    }

    /// `cp -p` and `mv -p` make the destination's missing folders, as `put -p` does (`cp -r /Photos /Backup/Photos`).
    @Test func copyAndMoveMakeMissingFoldersWithParents() async throws {
        _ = try server.root.write("Photos/a.jpg", "a\n")
        _ = try server.root.write("Photos/sub/b.jpg", "b\n")
        _ = try server.root.write("loose.txt", "loose\n")
        _ = try work.write("x.txt", "x\n")
        let without = try await cli.run(["cp", "-r", "officer:/Photos", "officer:/Backup/Photos"])
        #expect(without.status == 4 && without.stderr.contains("-p"), "\(without.stderr)")
        let copied = try await cli.run(["cp", "-r", "-p", "officer:/Photos", "officer:/Backup/Photos"])
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(try String(contentsOfFile: server.root.file("Backup/Photos/sub/b.jpg"), encoding: .utf8) == "b\n")
        // A refusal leaves no folder behind: a name too long, a source that is not there.
        let long = String(repeating: "n", count: 300)
        #expect(try await cli.run(["cp", "-p", "officer:/loose.txt", "officer:/Made/\(long)"]).status == 2)
        #expect(try await cli.run(["mv", "-p", "officer:/nothing.txt", "officer:/Made/too/"]).status == 4)
        #expect(try await cli.run(["put", "-p", work.file("x.txt"), "officer:/Made/\(long)"]).status == 2)
        #expect(!FileManager.default.fileExists(atPath: server.root.file("Made")))
        let moved = try await cli.run(["mv", "-p", "officer:/loose.txt", "officer:/Archive/2026/"])
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(
            FileManager.default.fileExists(atPath: server.root.file("Archive/2026/loose.txt"))
                && !FileManager.default.fileExists(atPath: server.root.file("loose.txt")))
    }

    /// What `--help` promises works: `GROUP help CMD`, and the usage lines say what the command takes.
    @Test func helpDoesWhatItSays() async throws {
        let group = try await cli.run(["cache", "--help"])
        #expect(group.stdout.contains("See 'officer-files cache help COMMAND'"), "\(group.stdout)")
        let viaGroup = try await cli.run(["cache", "help", "pin"])
        let direct = try await cli.run(["cache", "pin", "--help"])
        #expect(
            viaGroup.status == 0 && viaGroup.stdout == direct.stdout
                && viaGroup.stdout.contains("officer-files cache pin"), "\(viaGroup.stdout)\(viaGroup.stderr)")
        let unknown = try await cli.run(["cache", "help", "pni"])
        #expect(unknown.status == 2 && unknown.stderr.contains("pin"), "\(unknown.stderr)")
        let get = try await cli.run(["get", "--help"])
        #expect(
            get.stdout.contains("Usage: officer-files get [OPTIONS] SRC [DEST]") && get.stdout.contains("--zip SRC..."),
            "\(get.stdout)")
        let sync = try await cli.run(["sync", "--help"])
        #expect(
            !sync.stdout.contains("One of SRC and DST is a local folder") && sync.stdout.contains("remote to remote"),
            "\(sync.stdout)")
    }

    /// `thumb` takes a local folder as it takes a remote one: the pictures directly in it.
    @Test func thumbOfALocalFolder() async throws {
        _ = try photo("album/one.jpg", width: 1200, height: 900)
        _ = try photo("album/two.png", width: 900, height: 1200)
        _ = try work.write("album/notes.txt", "no picture\n")
        let thumbs = work.file("thumbs")
        let result = try await cli.run(["thumb", "-o", thumbs + "/", work.file("album")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: thumbs).sorted() == ["one.thumb.jpg", "two.thumb.jpg"])
    }

    /// `info` shows a photo's GPS position, here and on the server, in words and in JSON.
    @Test func infoShowsTheGPSPosition() async throws {
        let image = try photo("gps.jpg", width: 640, height: 480)
        let tagged = try ProcessRunner.run(
            "/usr/bin/exiftool",
            [
                "-q", "-overwrite_original", "-GPSLatitude=48.8583", "-GPSLatitudeRef=N", "-GPSLongitude=2.2945",
                "-GPSLongitudeRef=W", image,
            ])
        #expect(tagged.status == 0, "\(tagged.stderr)")
        try FileManager.default.copyItem(atPath: image, toPath: server.root.file("gps.jpg"))
        for target in [image, "officer:/gps.jpg"] {
            let info = try await cli.run(["info", target])
            #expect(info.stdout.contains("GPS 48.85830° N, 2.29450° W"), "\(target): \(info.stdout)")
            let json = try await cli.run(["--json", "info", target])
            let record = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
            let facts = record?["image"] as? [String: Any]
            #expect(
                abs((facts?["latitude"] as? Double ?? 0) - 48.8583) < 0.0001
                    && abs((facts?["longitude"] as? Double ?? 0) + 2.2945) < 0.0001, "\(json.stdout)")
        }
    }

    /// A HEIC photo offers OCR and gets it: converted to JPEG here, since the server's engine reads no HEIC.
    @Test func ocrOfAHEICPhoto() async throws {
        let png = work.file("text.png")
        #expect(
            try ProcessRunner.run(
                "/usr/bin/convert",
                [
                    "-size", "900x200", "xc:white", "-font", "DejaVu-Sans", "-pointsize", "56", "-fill", "black",
                    "-annotate", "+20+120", "Hello Officer World", png,
                ]
            ).status == 0)
        let heic = work.file("text.heic")
        #expect(try ProcessRunner.run("/usr/bin/vips", ["copy", png, heic]).status == 0)
        let info = try await cli.run(["info", heic])
        #expect(info.stdout.contains("Actions: ocr"), "\(info.stdout)")
        let local = try await cli.run(["ocr", heic])
        #expect(local.status == 0 && local.stdout == "Hello Officer World\n", "\(local.stdout)\(local.stderr)")
        try FileManager.default.copyItem(atPath: heic, toPath: server.root.file("text.heic"))
        let remote = try await cli.run(["ocr", "officer:/text.heic"])
        #expect(remote.status == 0 && remote.stdout == "Hello Officer World\n", "\(remote.stdout)\(remote.stderr)")
        #expect(
            ((try? FileManager.default.contentsOfDirectory(atPath: server.root.file(".officer-files/inbox"))) ?? [])
                .isEmpty)
    }

    /// A file this tool removed or moved away is gone offline too (its cached copy was still printed).
    @Test func offlineReadsForgetWhatWasRemoved() async throws {
        _ = try server.root.write("Docs/gone.txt", "old bytes\n")
        _ = try server.root.write("Docs/moved.txt", "moved bytes\n")
        #expect(try await cli.run(["cat", "officer:/Docs/gone.txt"]).stdout == "old bytes\n")
        #expect(try await cli.run(["cat", "officer:/Docs/moved.txt"]).stdout == "moved bytes\n")
        #expect(try await cli.run(["rm", "officer:/Docs/gone.txt"]).status == 0)
        #expect(try await cli.run(["mv", "officer:/Docs/moved.txt", "officer:/Docs/renamed.txt"]).status == 0)
        for path in ["officer:/Docs/gone.txt", "officer:/Docs/moved.txt"] {
            let offline = try await cli.run(["--offline", "cat", path])
            #expect(offline.status == 4 && offline.stdout.isEmpty, "\(path): \(offline.stdout)\(offline.stderr)")
        }
    }
}
