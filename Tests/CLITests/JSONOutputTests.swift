import Foundation
import Journal
import OfficerFilesCLI
import TestSupport
import Testing

/// Every command's `--json` output against docs/json/officer-files.schema.json (docs/JSON.md): each stdout line
/// is one record of the kind the command documents, every progress event on stderr is a `progress-event`, and
/// every command of the tree is run (or named below as one that prints no JSON).
@Suite struct JSONOutputTests {
    let cli = CLIRunner()
    let work = TemporaryDirectory(prefix: "json-output", inMemory: true)
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Commands whose output is the bytes themselves, help, or a shell script.
    static let withoutJSON: Set<String> = ["cat", "archive cat", "help", "completion"]

    final class Collected: @unchecked Sendable {
        let lock = NSLock()
        var lines: [String] = []
        var commands: Set<String> = []

        func add(_ record: String, _ line: Substring) { lock.withLock { lines.append(record + "\t" + line) } }
        func ran(_ path: String) { _ = lock.withLock { commands.insert(path) } }
    }

    let collected = Collected()

    /// Runs `--json COMMAND`, expects `status`, files every stdout line as `record` and every JSON stderr line as
    /// a progress event; returns the decoded stdout records.
    @discardableResult
    func json(
        _ command: [String], _ record: String, stdin: String? = nil, status: Int32 = 0,
        lines expected: ClosedRange<Int> = 1...1_000,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [[String: Any]] {
        let result = try await cli.run(["--json"] + command, stdin: stdin, in: work.path)
        #expect(result.status == status, "\(command): \(result.stderr)", sourceLocation: sourceLocation)
        let lines = result.stdout.split(separator: "\n")
        #expect(
            expected.contains(lines.count), "\(command): \(lines.count) lines: \(result.stdout)",
            sourceLocation: sourceLocation)
        for line in lines { collected.add(record, line) }
        for line in result.stderr.split(separator: "\n") where line.hasPrefix("{") {
            collected.add("progress-event", line)
        }
        collected.ran(try OfficerFilesApp.parser.parse(command).path.joined(separator: " "))
        return lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    func tool(_ path: String, _ arguments: [String]) async throws {
        let result = try await ProcessRunner.runDetached(path, arguments)
        try #require(result.status == 0, "\(path) \(arguments): \(result.stderr)")
    }

    /// A download of `path` left half done (killed), for `transfers` to find.
    func interruptedDownload(_ path: String, to local: String) async throws {
        let process = try cli.launch(["get", "--no-progress", "--bwlimit", "300K", path, local], in: work.path)
        // Interrupted once the journal holds some of it: the download is then certainly under way.
        let journal = cli.journalPath
        #expect(
            await Eventually.signal(SIGINT, to: [process], timeout: 60) {
                (try TransferJournal(path: journal).download(for: local)?.segments.reduce(0) { $0 + $1.done } ?? 0)
                    > 100_000
            })
        process.waitUntilExit()
    }

    @Test func everyCommandsJSONFitsTheSchema() async throws {
        let nginx = try await NginxServer.start(directives: "types { video/mp4 mp4; }")
        let server = try await ReferenceServer.start(arguments: ["--fetch-allow-port", String(nginx.port)])
        let store = try await ObjectStoreServer.shared()
        let bucket = ObjectStoreServer.freshBucket("json")

        // Fixtures, made here.
        _ = try server.root.write("Documents/notes.md", "# notes\nsecond line\n")
        _ = try server.root.write("big.bin", TestBytes.pattern(3_000_000, seed: 251))
        let photo = work.file("photo.jpg")
        try await tool("/usr/bin/vips", ["gaussnoise", photo + "[Q=90]", "640", "480"])
        try FileManager.default.copyItem(atPath: photo, toPath: server.root.file("Documents/photo.jpg"))
        try await tool(
            "/usr/bin/convert",
            [
                "-size", "400x120", "xc:white", "-font", "DejaVu-Sans", "-pointsize", "48", "-draw",
                "text 20,80 'Hello'", work.file("text.png"),
            ])
        try await tool(
            "/usr/bin/ffmpeg",
            [
                "-nostdin", "-y", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=duration=30:size=160x120:rate=10",
                "-f", "lavfi", "-i", "sine=frequency=440:duration=30", "-c:v", "mpeg4", "-c:a", "libvorbis",
                "-shortest", server.root.file("clip.mkv"),
            ])
        // The detached job must still be running when it is cancelled, whatever the machine's load: ten minutes of video.
        try await tool(
            "/usr/bin/ffmpeg",
            [
                "-nostdin", "-y", "-loglevel", "error", "-f", "lavfi", "-i",
                "testsrc=duration=600:size=320x240:rate=25",
                "-c:v", "mpeg4", server.root.file("long.mkv"),
            ])
        try await tool(
            "/usr/bin/ffmpeg",
            [
                "-nostdin", "-y", "-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=1",
                work.file("tone.wav"),
            ])
        _ = try work.write("tree/a.txt", "a\n")
        _ = try work.write("tree/sub/b.txt", "b\n")
        try await tool("/usr/bin/bsdtar", ["-a", "-cf", work.file("tree.zip"), "-C", work.path, "tree"])
        try FileManager.default.copyItem(atPath: work.file("tree.zip"), toPath: server.root.file("tree.zip"))
        try FileManager.default.copyItem(atPath: work.file("tree.zip"), toPath: nginx.root.file("tree.zip"))
        try FileManager.default.createDirectory(
            atPath: server.root.file("Downloads"), withIntermediateDirectories: false)

        // Accounts and remotes.
        try await json(
            ["login", "--server", server.url, "--email", server.email, "--password-stdin"], "account",
            stdin: server.password + "\n")
        try await json(["whoami"], "account")
        try await json(
            [
                "remote", "add", "st", "--s3", "--endpoint", store.url, "--access-key", store.accessKey,
                "--secret-stdin",
            ], "remote",
            stdin: store.secretKey + "\n")
        try await json(["remote", "add", "work", "--officer", server.url], "remote")
        let remotes = try await json(["remote", "list"], "remote", lines: 3...3)
        #expect(remotes.first?["isDefault"] as? Bool == true && remotes.first?["endpoint"] as? String == server.url)
        try await json(["remote", "remove", "work"], "remote-removed")

        // Files on the Officer server.
        let listed = try await json(["ls", "officer:/Documents"], "entry", lines: 2...2)
        #expect(listed.allSatisfy { ($0["path"] as? String)?.hasPrefix("officer:/Documents/") == true }, "\(listed)")
        try await json(["ls", "-R", "officer:/"], "entry", lines: 5...20)
        try await json(["ls", "officer:/Downloads"], "entry", lines: 0...0)
        let stat = try await json(["stat", "officer:/Documents/notes.md"], "entry")
        #expect((stat.first?["modified"] as? String)?.hasSuffix("Z") == true)
        try await json(["search", "notes"], "entry", lines: 1...3)
        try await json(["mkdir", "-p", "officer:/J/K"], "entry")
        try await json(["cp", "officer:/Documents/notes.md", "officer:/J/"], "moved")
        try await json(["mv", "officer:/J/notes.md", "officer:/J/renamed.md"], "moved")
        try await json(["rm", "-r", "officer:/J"], "removed")
        try await json(["get", "officer:/Documents/notes.md", work.file("notes.md")], "transfer")
        try await json(["get", "--zip", "officer:/Documents", work.file("docs.zip")], "transfer")
        try await json(["put", work.file("tree/a.txt"), "officer:/Documents/"], "transfer")
        try await json(
            ["put", "--resumable", "ietf", work.file("tree/a.txt"), "officer:/Documents/ietf.txt"], "transfer")
        try await json(["put", "-", "officer:/Documents/stdin.txt"], "transfer", stdin: "from stdin\n")
        try await json(["attach", photo, work.file("tree/a.txt")], "attachment", lines: 2...2)
        try await json(["info", photo, "officer:/Documents/notes.md"], "facts", lines: 2...2)
        try await json(["archive", "ls", work.file("tree.zip")], "archive")
        try await json(["archive", "ls", "officer:/tree.zip"], "archive")
        try await json(["image", "prepare", "--max-edge", "200", photo, work.file("small.jpg")], "prepared-image")
        try await json(["thumb", "--size", "128", "officer:/Documents/photo.jpg", "-o", work.path], "thumbnail")

        // Sync both ways, a dry run first.
        try await json(["sync", "-n", work.file("tree"), "officer:/Tree"], "sync-record", lines: 3...10)
        let pushed = try await json(["sync", work.file("tree"), "officer:/Tree"], "sync-record", lines: 3...10)
        #expect(
            pushed.last?["type"] as? String == "summary"
                && pushed.dropLast().allSatisfy { $0["type"] as? String == "done" }, "\(pushed)")
        let copied = try await json(["copy", "officer:/Tree", work.file("pulled")], "sync-record", lines: 3...10)
        #expect(copied.last?["transferred"] as? Int == 2, "\(copied)")
        // Each file fetched says its check: the server's SHA-256.
        let fetched = copied.filter { $0["kind"] as? String == "download" }
        #expect(fetched.count == 2 && fetched.allSatisfy { $0["checked"] as? String == "sha256" }, "\(copied)")

        // S3 locations.
        try await json(["mkdir", "st:\(bucket)"], "entry")
        try await json(["put", work.file("tree/a.txt"), "st:\(bucket)/a.txt"], "transfer")
        try await json(["ls", "st:\(bucket)"], "entry")
        try await json(["stat", "st:\(bucket)/a.txt"], "entry")
        try await json(["get", "st:\(bucket)/a.txt", work.file("from-s3.txt")], "transfer")
        try await json(["cp", "st:\(bucket)/a.txt", "st:\(bucket)/b.txt"], "moved")

        // The cache.
        try await json(["cache", "pin", "officer:/Documents/notes.md"], "pinned")
        try await json(["cache", "ls"], "cache-entry", lines: 1...20)
        try await json(["cache", "stats"], "cache-stats")
        try await json(["cache", "unpin", "officer:/Documents/notes.md"], "pinned")
        try await json(["cache", "verify"], "cache-verified")
        try await json(["cache", "clear"], "cache-cleared")

        // Unfinished transfers.
        try await interruptedDownload("officer:/big.bin", to: work.file("big.bin"))
        try await json(["transfers", "list"], "unfinished")
        try await json(["transfers", "resume"], "transfer")
        try await interruptedDownload("officer:/big.bin", to: work.file("big2.bin"))
        try await json(["transfers", "clean"], "cleaned")
        try await json(["transfers", "list"], "unfinished", lines: 0...0)

        // The queue.
        try await json(["--offline", "mkdir", "--queue", "officer:/Queued"], "queued")
        try await json(["--offline", "mkdir", "--queue", "officer:/Dropped"], "queued")
        let queued = try await json(["queue", "list"], "queued", lines: 2...2)
        try await json(["queue", "drop", String(queued.last?["id"] as? Int ?? 0)], "dropped")
        try await json(["queue", "run"], "queue-run")

        // The server's work.
        try await json(["extract", "--wait", "officer:/tree.zip", "officer:/Extracted"], "job")
        try await json(["fetch", "--wait", nginx.url + "/tree.zip", "officer:/Downloads/"], "job", status: 0)
        let detached = try await json(["transcode", "--detach", "--height", "96", "officer:/long.mkv"], "job")
        let id = detached.first?["id"] as? String ?? "none"
        try await json(["jobs", "list"], "job", lines: 1...10)
        try await json(["jobs", "cancel", id], "job")
        try await json(["jobs", "wait", id], "job", status: 1)
        try await json(
            ["transcode", "--wait", "--get", "--height", "96", "-o", "officer:/clip.96.mp4", "officer:/clip.mkv"],
            "transfer")
        try await json(["tts", "--text", "hello there", "-o", work.file("hello.wav")], "action")
        try await json(["ocr", work.file("text.png")], "action")
        try await json(["transcribe", work.file("tone.wav")], "action")
        try await json(["extract-audio", "officer:/clip.mkv", "-o", work.file("clip.mp3")], "action")

        // A watch, until stopped.
        let watched = work.file("watched")
        try FileManager.default.createDirectory(atPath: watched, withIntermediateDirectories: true)
        _ = try work.write("watched/w.txt", "watched\n")
        let log = work.file("watch.log")
        let watch = Process()
        watch.executableURL = URL(fileURLWithPath: ProcessRunner.cliPath)
        watch.arguments = ["--json", "watch", "--settle", "0.2", watched, "officer:/Watched"]
        watch.environment = cli.environment()
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        watch.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        try watch.run()
        #expect(
            await Eventually.wait(timeout: 30) {
                ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("caught-up")
            })
        _ = try work.write("watched/later.txt", "later\n")
        #expect(
            await Eventually.wait(timeout: 30) {
                ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("\"type\":\"uploaded\"")
            })
        watch.interrupt()
        watch.waitUntilExit()
        let events = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
        #expect(events.count >= 2, "\(events)")
        for line in events { collected.add("watch-event", line) }
        collected.ran("watch")

        try await json(["logout"], "logout")

        // Every line fits its record.
        let input = collected.lines.joined(separator: "\n") + "\n"
        let check = try await ProcessRunner.runDetached(
            Self.repository.appendingPathComponent(".venv/bin/python").path,
            [
                Self.repository.appendingPathComponent("Tests/Server/validate_json.py").path,
                Self.repository.appendingPathComponent("docs/json/officer-files.schema.json").path,
            ],
            stdin: input)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(collected.lines.count > 60, "\(collected.lines.count) records")

        // Every command of the tree was run.
        var leaves: [String] = []
        func walk(_ spec: CommandSpec, _ prefix: [String]) {
            if spec.subcommands.isEmpty { leaves.append(prefix.joined(separator: " ")) }
            for sub in spec.subcommands { walk(sub, prefix + [sub.name]) }
        }
        for command in OfficerFilesApp.rootSpec.subcommands { walk(command, [command.name]) }
        let missing = Set(leaves).subtracting(collected.commands).subtracting(Self.withoutJSON)
        #expect(missing.isEmpty, "commands never run with --json: \(missing.sorted())")
    }
}
