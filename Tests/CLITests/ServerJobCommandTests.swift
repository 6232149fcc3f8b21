import Foundation
import Journal
import TestSupport
import Testing

/// The server's long operations end to end: `extract`, `transcode`, `fetch`, `jobs`, `get --zip` and `put -`,
/// against the reference server with its real engines (libarchive's rules in Python, ffmpeg, git, yt-dlp).
@Suite struct ServerJobCommandTests {
    let cli = CLIRunner()
    let work = TemporaryDirectory(prefix: "server-jobs", inMemory: true)

    /// Runs a tool off Swift's shared pool (an ffmpeg or a hash of 200 MB would hold one of its two threads).
    func tool(_ path: String, _ arguments: [String], in directory: String? = nil) async throws -> ProcessResult {
        let result = try await ProcessRunner.runDetached(path, arguments, currentDirectory: directory)
        try #require(result.status == 0, "\(path) \(arguments) failed: \(result.stderr)")
        return result
    }

    /// A test video with sound, made by ffmpeg.
    func makeVideo(
        _ path: String, seconds: Int, size: String = "320x240",
        codecs: [String] = ["-c:v", "mpeg4", "-c:a", "libvorbis"]
    ) async throws {
        _ = try await tool(
            "/usr/bin/ffmpeg",
            [
                "-nostdin", "-y", "-loglevel", "error", "-f", "lavfi", "-i",
                "testsrc=duration=\(seconds):size=\(size):rate=25",
                "-f", "lavfi", "-i", "sine=frequency=440:duration=\(seconds)",
            ] + codecs + [
                "-shortest", path,
            ])
    }

    func listing(_ folder: String) -> [String] {
        ((try? FileManager.default.subpathsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    @Test func extractChecksTheArchiveThenTheServerExtracts() async throws {
        let server = try await ReferenceServer.start(arguments: ["--async-after", "0"])
        #expect(try await cli.login(server).status == 0)
        _ = try work.write("src/docs/readme.txt", "hello\n")
        _ = try work.write("src/photo.bin", Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }))
        _ = try await tool(
            "/usr/bin/bsdtar", ["-a", "-cf", server.root.file("bundle.zip"), "docs", "photo.bin"], in: work.file("src"))
        _ = try await tool("/usr/bin/bsdtar", ["-czf", server.root.file("logs.tar.gz"), "docs"], in: work.file("src"))

        let zip = try await cli.run(["extract", "--wait", "officer:/bundle.zip"])
        #expect(zip.status == 0, "\(zip.stderr)")
        #expect(zip.stdout.contains("Extracted 3 entries into officer:/bundle"), "\(zip.stdout)")
        #expect(
            try await ProcessRunner.sha256Detached(of: server.root.file("bundle/photo.bin"))
                == (try await ProcessRunner.sha256Detached(of: work.file("src/photo.bin"))))
        #expect(try String(contentsOfFile: server.root.file("bundle/docs/readme.txt"), encoding: .utf8) == "hello\n")

        // Into an existing folder: a folder named after the archive inside it.
        try FileManager.default.createDirectory(atPath: server.root.file("Archive"), withIntermediateDirectories: false)
        let tar = try await cli.run(["extract", "--wait", "officer:/logs.tar.gz", "officer:/Archive"])
        #expect(tar.status == 0, "\(tar.stderr)")
        #expect(
            FileManager.default.contents(atPath: server.root.file("Archive/logs/docs/readme.txt"))
                == Data("hello\n".utf8))
        let again = try await cli.run(["extract", "--wait", "officer:/logs.tar.gz", "officer:/Archive"])
        #expect(again.status == 5 && again.stderr.contains("officer:/Archive/logs: already exists"), "\(again.stderr)")

        // A traversal archive: refused by the client from its safety report, and by the server with --force.
        _ = try await tool(
            ProcessRunner.packageRoot + "/.venv/bin/python",
            [
                "-c",
                "import zipfile; z = zipfile.ZipFile('\(server.root.file("evil.zip"))', 'w'); z.writestr('ok.txt', 'ok'); z.writestr('../../escape.txt', 'x'); z.close()",
            ])
        let refused = try await cli.run(["extract", "--wait", "officer:/evil.zip"])
        #expect(refused.status == 9, "\(refused.stderr)")
        // Nothing of it would be extracted with --force either: said so (it implied the other members would be).
        #expect(
            refused.stderr.contains("officer:/evil.zip: unsafe to extract: '../../escape.txt' climbs out")
                && refused.stderr.contains("nothing of it is extracted, --force or not"), "\(refused.stderr)")
        let forced = try await cli.run(["extract", "--wait", "--force", "officer:/evil.zip"])
        #expect(forced.status != 0 && forced.stderr.contains("would land outside the folder"), "\(forced.stderr)")
        #expect(!FileManager.default.fileExists(atPath: server.root.file("evil")))
        #expect(!FileManager.default.fileExists(atPath: server.root.path + "/../escape.txt"))
        #expect(listing(server.root.path).filter { $0.contains(".officer-upload-") }.isEmpty)
    }

    @Test func transcodeAsADetachedJobThatOutlivesTheClient() async throws {
        try await HeavyWork.shared.run { try await transcodeAsADetachedJobThatOutlivesTheClientAlone() }
    }

    func transcodeAsADetachedJobThatOutlivesTheClientAlone() async throws {
        let server = try await ReferenceServer.start()
        #expect(try await cli.login(server).status == 0)
        try await makeVideo(server.root.file("clip.mkv"), seconds: 6, size: "640x480")

        // Detached (stderr is not a terminal): the id on stdout, the command to follow it on stderr.
        let started = try await cli.run(["transcode", "officer:/clip.mkv", "--height", "240"])
        #expect(started.status == 0, "\(started.stderr)")
        let id = started.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(
            id.count == 16 && started.stderr.contains("officer-files jobs wait \(id)"),
            "\(started.stdout) \(started.stderr)")
        // Another process follows it to its end.
        let waited = try await cli.run(["jobs", "wait", id])
        #expect(waited.status == 0, "\(waited.stderr)")
        #expect(
            waited.stderr.contains("job \(id) (transcode officer:/clip.mkv): done: officer:/clip.240p.mp4"),
            "\(waited.stderr)")
        let probe = try await tool(
            "/usr/bin/ffprobe",
            [
                "-v", "error", "-show_entries", "stream=codec_name,height", "-of", "csv=p=0",
                server.root.file("clip.240p.mp4"),
            ]
        ).stdout
        #expect(probe.split(separator: "\n").sorted() == ["aac", "h264,240"], "\(probe)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: server.root.file("clip.240p.mp4")))
        let moov = bytes.range(of: Data("moov".utf8))!.lowerBound, mdat = bytes.range(of: Data("mdat".utf8))!.lowerBound
        #expect(moov < mdat, "faststart: the index comes before the media data")

        // --get waits and downloads the result.
        let got = try await cli.run(["transcode", "officer:/clip.mkv", "--height", "120", "--get"], in: work.path)
        #expect(got.status == 0, "\(got.stderr)")
        #expect(
            try await ProcessRunner.sha256Detached(of: work.file("clip.120p.mp4"))
                == (try await ProcessRunner.sha256Detached(of: server.root.file("clip.120p.mp4"))))
        // Never scaled up, and named by the height made: the 480p clip asked at 720 is clip.480p.mp4 (it was
        // clip.720p.mp4); asked again, the transcode exists.
        let tall = try await cli.run(["transcode", "officer:/clip.mkv", "--height", "720", "--get"], in: work.path)
        #expect(tall.status == 0 && tall.stdout.contains("into officer:/clip.480p.mp4"), "\(tall.stdout)")
        #expect(FileManager.default.fileExists(atPath: work.file("clip.480p.mp4")))
        #expect(!FileManager.default.fileExists(atPath: server.root.file("clip.720p.mp4")))
        let again = try await cli.run(["transcode", "officer:/clip.mkv", "--height", "720", "--wait"])
        #expect(
            again.status == 5 && again.stderr.contains("the transcode of officer:/clip.mkv at most 720 px high"),
            "\(again.stderr)")

        // A job that fails: `jobs wait` says why and exits non-zero.
        _ = try work.write("fake.mkv", "not a video")
        try FileManager.default.copyItem(atPath: work.file("fake.mkv"), toPath: server.root.file("fake.mkv"))
        let failing = try await cli.run(["transcode", "--detach", "officer:/fake.mkv"])
        let failingID = failing.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let failed = try await cli.run(["jobs", "wait", failingID])
        #expect(
            failed.status != 0 && failed.stderr.contains("job \(failingID) (transcode officer:/fake.mkv): failed"),
            "\(failed.stderr)")

        // A cancelled job: the engine stops and nothing of the output stays.
        try await makeVideo(server.root.file("long.mkv"), seconds: 300, size: "320x240")
        let long = try await cli.run(["transcode", "--detach", "officer:/long.mkv"])
        let longID = long.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        // The server's job starts its engine when it will (a process of its own): asked until it says so.
        let environment = cli.environment()
        await Eventually.wait(timeout: 60) {
            let job = try ProcessRunner.run(
                ProcessRunner.cliPath, ["--json", "jobs", "list"], environment: environment)
            return job.stdout.contains("\"state\":\"running\"")
        }
        let cancelled = try await cli.run(["jobs", "cancel", longID])
        #expect(
            cancelled.status == 0 && cancelled.stdout.contains("job \(longID): cancelled"),
            "\(cancelled.stdout) \(cancelled.stderr)")
        let afterCancel = try await cli.run(["jobs", "wait", longID])
        #expect(afterCancel.status != 0)
        #expect(!FileManager.default.fileExists(atPath: server.root.file("long.mp4")))
        #expect(listing(server.root.path).filter { $0.contains(".officer-upload-") }.isEmpty)
        let listed = try await cli.run(["jobs", "list"])
        #expect(
            listed.status == 0 && listed.stdout.contains("\(id)  transcode officer:/clip.mkv: done"), "\(listed.stdout)"
        )
    }

    @Test func aLongAIActionBecomesAJobTheClientFollows() async throws {
        // With --async-after 0 every action answers 202 at once: the client follows the job to the text.
        let server = try await ReferenceServer.start(arguments: ["--async-after", "0"])
        #expect(try await cli.login(server).status == 0)
        let image = work.file("hello.png")
        _ = try await tool(
            "/usr/bin/convert",
            [
                "-size", "900x200", "xc:white", "-font", "DejaVu-Sans", "-pointsize", "56", "-fill", "black",
                "-annotate", "+20+120", "Hello Officer Jobs", image,
            ])
        try FileManager.default.copyItem(atPath: image, toPath: server.root.file("scan.png"))
        let ocr = try await cli.run(["-v", "ocr", "officer:/scan.png"])
        #expect(ocr.status == 0, "\(ocr.stderr)")
        #expect(ocr.stdout == "Hello Officer Jobs\n")
        #expect(ocr.stderr.contains("/api/jobs/"), "the text came through the job:\n\(ocr.stderr)")
    }

    @Test func zipOfManyIsResumedAfterAKillAndUnzipsToTheSameBytes() async throws {
        try await HeavyWork.shared.run { try await zipOfManyIsResumedAfterAKillAndUnzipsToTheSameBytesAlone() }
    }

    func zipOfManyIsResumedAfterAKillAndUnzipsToTheSameBytesAlone() async throws {
        let server = try await ReferenceServer.start(inMemory: true)
        #expect(try await cli.login(server).status == 0)
        let photos = server.root.file("Photos")
        try FileManager.default.createDirectory(atPath: photos + "/2026", withIntermediateDirectories: true)
        for (name, size) in [
            ("Photos/2026/big.bin", 60_000_000), ("Photos/small.txt", 10), ("a.bin", 2_000_000), ("b.txt", 5),
        ] {
            let handle = try #require(FileHandle(forReadingAtPath: "/dev/urandom"))
            let data = try handle.read(upToCount: size) ?? Data()
            try data.write(to: URL(fileURLWithPath: server.root.file(name)))
        }
        let sources = ["officer:/Photos", "officer:/a.bin", "officer:/b.txt"]
        let whole = try await cli.run(["get", "--zip"] + sources + [work.file("whole.zip")])
        #expect(whole.status == 0, "\(whole.stderr)")

        // Killed partway (slowed down so it is), then the same command again: it resumes, and the bytes match.
        let killed = try cli.launch(["get", "--zip", "--bwlimit", "3M"] + sources + [work.file("resumed.zip")])
        // Killed once the journal holds 15 MB of it (of about 62 under --bwlimit 3M: seconds before it is whole).
        let journal = cli.journalPath
        let stopped = await Eventually.signal(SIGKILL, to: [killed], timeout: 60) {
            (try TransferJournal(path: journal).downloads().first?.segments.reduce(0) { $0 + $1.done } ?? 0)
                >= 15_000_000
        }
        #expect(stopped)
        killed.waitUntilExit()
        #expect(!FileManager.default.fileExists(atPath: work.file("resumed.zip")))
        let resumed = try await cli.run(["get", "--zip"] + sources + [work.file("resumed.zip")])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(
            resumed.stdout.contains("resumed after") || resumed.stderr.contains("resumed after"),
            "\(resumed.stdout) \(resumed.stderr)")
        #expect(
            try await ProcessRunner.sha256Detached(of: work.file("resumed.zip"))
                == (try await ProcessRunner.sha256Detached(of: work.file("whole.zip"))))

        let out = work.file("unzipped")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
        _ = try await tool("/usr/bin/bsdtar", ["-xf", work.file("resumed.zip"), "-C", out])
        #expect(listing(out) == ["Photos", "Photos/2026", "Photos/2026/big.bin", "Photos/small.txt", "a.bin", "b.txt"])
        for name in ["Photos/2026/big.bin", "Photos/small.txt", "a.bin", "b.txt"] {
            #expect(
                try await ProcessRunner.sha256Detached(of: out + "/" + name)
                    == (try await ProcessRunner.sha256Detached(of: server.root.file(name))), "\(name)")
        }
        let notRemote = try await cli.run(["get", "--zip", "officer:/a.bin", work.file("x.bin"), work.file("y.zip")])
        #expect(
            notRemote.status == 2 && notRemote.stderr.contains("x.bin: not on the server of officer:/a.bin"),
            "\(notRemote.stderr)")
        // One member per name (two `b.txt` made a zip that unzips one over the other); a missing path is named.
        let twice = try await cli.run([
            "get", "--zip", "officer:/b.txt", "officer:/Photos/../b.txt", work.file("t.zip"),
        ])
        #expect(twice.status == 2 && twice.stderr.contains("a zip holds one member of each name"), "\(twice.stderr)")
        let missing = try await cli.run(["get", "--zip", "officer:/a.bin", "officer:/nosuch", work.file("m.zip")])
        #expect(
            missing.status == 4 && missing.stderr.contains("officer:/nosuch: no such file or folder"),
            "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: work.file("t.zip")))
    }

    @Test func putFromAPipeOfUnknownLength() async throws {
        try await HeavyWork.shared.run { try await putFromAPipeOfUnknownLengthAlone() }
    }

    func putFromAPipeOfUnknownLengthAlone() async throws {
        let server = try await ReferenceServer.start(inMemory: true)
        #expect(try await cli.login(server).status == 0)
        let source = work.file("stream.bin")
        _ = try await ProcessRunner.runDetached("/bin/sh", ["-c", "head -c 200000000 /dev/urandom > '\(source)'"])
        let command = "cat '\(source)' | '\(ProcessRunner.cliPath)' put - officer:/notes/stream.bin --parents"
        let piped = try await ProcessRunner.runDetached("/bin/sh", ["-c", command], environment: cli.environment())
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(
            (piped.stdout + piped.stderr).contains("Uploaded standard input to officer:/notes/stream.bin (191 MiB)"),
            "\(piped.stderr)")
        #expect(
            try await ProcessRunner.sha256Detached(of: server.root.file("notes/stream.bin"))
                == (try await ProcessRunner.sha256Detached(of: source)))

        let empty = try await ProcessRunner.runDetached(
            "/bin/sh", ["-c", "printf '' | '\(ProcessRunner.cliPath)' put - officer:/empty.txt"],
            environment: cli.environment())
        #expect(empty.status == 0 && FileManager.default.contents(atPath: server.root.file("empty.txt")) == Data())
        let exists = try await ProcessRunner.runDetached(
            "/bin/sh", ["-c", "echo more | '\(ProcessRunner.cliPath)' put - officer:/empty.txt"],
            environment: cli.environment())
        #expect(
            exists.status == 5
                && exists.stderr.contains("officer:/empty.txt: already exists (use --force to replace it)"),
            "\(exists.stderr)")
        let folder = try await ProcessRunner.runDetached(
            "/bin/sh", ["-c", "echo more | '\(ProcessRunner.cliPath)' put - officer:/notes/"],
            environment: cli.environment())
        #expect(
            folder.status == 2 && folder.stderr.contains("standard input goes to a remote file name"),
            "\(folder.stderr)")
        // Nothing is left of unfinished uploads on the server.
        #expect(listing(server.state.path + "/tus").allSatisfy { $0.hasSuffix(".json") })
    }

    /// A slow pipe's bytes reach the server, and the progress, within seconds of being written: not only once a
    /// whole chunk filled (`put -` showed 0 B until then).
    @Test func aSlowPipeShowsProgressAsItFlows() async throws {
        let server = try await ReferenceServer.start(inMemory: true)
        #expect(try await cli.login(server).status == 0)
        // A named pipe fed 256 KiB every half second: `put -` reads it as it would `pg_dump |`.
        let fifo = work.file("slow.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let quarter = Data(count: 262_144)
        // Opened both ways, so opening does not wait for the command's end (Linux allows it on a FIFO); closed
        // after the last step, the command then reads the end of its input.
        let pipe = FileHandle(fileDescriptor: open(fifo, O_RDWR), closeOnDealloc: true)
        SlowWriter.start(pause: 0.5, maxSteps: 16) { _ in
            pipe.write(quarter)
            return true
        } done: {
            try? pipe.close()
        }
        let command = "'\(ProcessRunner.cliPath)' --json put - officer:/slow.bin < '\(fifo)'"
        let piped = try await ProcessRunner.runDetached("/bin/sh", ["-c", command], environment: cli.environment())
        #expect(piped.status == 0, "\(piped.stderr)")
        let total = 16 * 262_144
        let done = Set(
            piped.stderr.split(separator: "\n").compactMap { line -> Int? in
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                    object["type"] as? String == "progress"
                else { return nil }
                return object["doneBytes"] as? Int
            }.filter { $0 > 0 && $0 < total })
        #expect(done.count >= 3, "\(done.sorted()) \(piped.stderr)")
        #expect(FileManager.default.contents(atPath: server.root.file("slow.bin"))?.count == total)
    }

    @Test func fetchIntoTheServerFromNginxWithTheAddressGuard() async throws {
        let nginx = try await NginxServer.start(directives: "types { video/mp4 mp4; }")
        let server = try await ReferenceServer.start(arguments: ["--fetch-allow-port", String(nginx.port)])
        #expect(try await cli.login(server).status == 0)
        try FileManager.default.createDirectory(
            atPath: server.root.file("Downloads"), withIntermediateDirectories: false)
        try await makeVideo(nginx.root.file("clip.mp4"), seconds: 2, codecs: ["-c:v", "libx264", "-c:a", "aac"])
        let repo = work.file("repo")
        _ = try await tool("/usr/bin/git", ["init", "-q", "-b", "main", repo])
        _ = try work.write("repo/README.md", "# hello\n")
        _ = try await tool("/usr/bin/git", ["-C", repo, "add", "README.md"])
        _ = try await tool(
            "/usr/bin/git",
            ["-C", repo, "-c", "user.email=t@example.org", "-c", "user.name=T", "commit", "-qm", "first"])
        _ = try await tool("/usr/bin/git", ["clone", "-q", "--bare", repo, nginx.root.file("project.git")])
        _ = try await tool("/usr/bin/git", ["-C", nginx.root.file("project.git"), "update-server-info"])

        let media = try await cli.run(["fetch", "--wait", nginx.url + "/clip.mp4", "officer:/Downloads/"])
        #expect(media.status == 0, "\(media.stderr)")
        #expect(media.stdout.contains("Fetched officer:/Downloads/clip.mp4"), "\(media.stdout)")
        #expect(
            try await ProcessRunner.sha256Detached(of: server.root.file("Downloads/clip.mp4"))
                == (try await ProcessRunner.sha256Detached(of: nginx.root.file("clip.mp4"))))

        let git = try await cli.run(["fetch", "--wait", nginx.url + "/project.git", "officer:/Downloads/"])
        #expect(git.status == 0, "\(git.stderr)")
        #expect(
            FileManager.default.contents(atPath: server.root.file("Downloads/project/README.md"))
                == Data("# hello\n".utf8))

        // The server's own port is loopback and not allowed: refused before any job.
        let loopback = try await cli.run(["fetch", "--wait", server.url + "/api/auth/me", "officer:/Downloads/"])
        #expect(
            loopback.status == 9 && loopback.stderr.contains("loopback, private or reserved address"),
            "\(loopback.stderr)")
        let scheme = try await cli.run(["fetch", "file:///etc/passwd", "officer:/Downloads/"])
        #expect(scheme.status == 2 && scheme.stderr.contains("only http and https"), "\(scheme.stderr)")
        #expect(
            listing(server.root.file("Downloads")).filter { !$0.hasPrefix("project/") && $0 != "project" } == [
                "clip.mp4"
            ])
    }
}
