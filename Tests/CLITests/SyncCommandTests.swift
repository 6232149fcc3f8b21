import Foundation
import HTTP
import Journal
import Officer
import OfficerFilesCLI
import TestSupport
import Testing
import Transfer

/// `sync` and `copy` end to end: push, pull, no-op, changes, renames, deletions and their safety, filters,
/// dry runs, interruption, hostile names from the server.
@Suite struct SyncCommandTests {
    let server: ReferenceServer
    let cli = CLIRunner()
    let work = TemporaryDirectory(prefix: "sync")

    init() async throws {
        server = try await ReferenceServer.start(arguments: ["--hostile-names"])
        #expect(try await cli.login(server).status == 0)
    }

    /// True once the server's tus state holds a partial upload larger than `bytes`.
    func serverHoldsAPart(largerThan bytes: Int) throws -> Bool {
        let tus = server.state.path + "/tus"
        return try FileManager.default.contentsOfDirectory(atPath: tus).contains { name in
            name.hasSuffix(".part")
                && ((try? FileManager.default.attributesOfItem(atPath: tus + "/" + name)[.size] as? Int) ?? 0) > bytes
        }
    }

    func bytes(_ count: Int, seed: Int) -> Data {
        TestBytes.pattern(count, seed: UInt64(seed))
    }

    /// Relative path → (sha256, mtime) of every file below `folder`.
    func snapshot(_ folder: String) throws -> [String: (String, Double)] {
        var result: [String: (String, Double)] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let relative = enumerator?.nextObject() as? String {
            let path = folder + "/" + relative
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            result[relative] = (
                try SHA256Hasher.hash(file: path), Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
            )
        }
        return result
    }

    func expectSame(_ left: String, _ right: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (a, b) = (try snapshot(left), try snapshot(right))
        #expect(Set(a.keys) == Set(b.keys), sourceLocation: sourceLocation)
        for (path, (hash, mtime)) in a {
            #expect(b[path]?.0 == hash, "\(path) differs", sourceLocation: sourceLocation)
            #expect(
                abs((b[path]?.1 ?? 0) - mtime) < 0.002, "\(path): mtime \(mtime) vs \(b[path]?.1 ?? 0)",
                sourceLocation: sourceLocation)
        }
    }

    func report(_ result: ProcessResult) throws -> SyncSummaryRecord {
        try JSONDecoder().decode(
            SyncSummaryRecord.self, from: Data((result.stdout.split(separator: "\n").last ?? "").utf8))
    }

    @Test func pushesPullsAndFollowsChanges() async throws {
        let local = work.path + "/local"
        try work.write("local/docs/a.txt", "alpha\n")
        try work.write("local/docs/b.txt", "bravo\n")
        try work.write("local/docs/deep/c.bin", bytes(300_000, seed: 1))
        try work.write("local/photos/big.bin", bytes(3_000_000, seed: 2))
        try work.write("local/zeta.txt", "")
        try FileManager.default.createDirectory(atPath: local + "/empty", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: local + "/link", withDestinationPath: "/etc/hostname")

        let pushed = try await cli.run(["--json", "sync", local, "officer:/backup"])
        #expect(pushed.status == 0, "\(pushed.stderr)")
        let first = try report(pushed)
        #expect(first.transferred == 5 && first.size == 3_300_012 && first.foldersCreated == 4 && first.warnings == 1)
        #expect(pushed.stderr.contains("link: a symbolic link: skipped"))
        try expectSame(local, server.root.file("backup"))
        #expect(FileManager.default.fileExists(atPath: server.root.file("backup/empty")))

        let noop = try report(try await cli.run(["--json", "sync", local, "officer:/backup"]))
        #expect(noop.transferred == 0 && noop.unchanged == 5 && noop.foldersCreated == 0)

        // A touched file (same size, new time), a renamed one, a deleted one.
        try "ALPHA\n".write(toFile: local + "/docs/a.txt", atomically: false, encoding: .utf8)
        try FileManager.default.moveItem(atPath: local + "/docs/b.txt", toPath: local + "/docs/b-renamed.txt")
        try FileManager.default.removeItem(atPath: local + "/zeta.txt")
        let copied = try await cli.run(["--json", "copy", local, "officer:/backup"])
        let changes = try report(copied)
        #expect(changes.transferred == 2 && changes.extraneous == 2 && changes.deleted == 0)
        #expect(copied.stderr.isEmpty || !copied.stderr.contains("error"))
        #expect(FileManager.default.fileExists(atPath: server.root.file("backup/docs/b.txt")))
        let mirrored = try report(try await cli.run(["--json", "sync", "--delete", local, "officer:/backup"]))
        #expect(mirrored.transferred == 0 && mirrored.deleted == 2)
        try expectSame(local, server.root.file("backup"))

        // Pull into a fresh folder, then a change on the server comes back down.
        let pulled = work.path + "/pulled"
        let down = try await cli.run(["sync", "officer:/backup", pulled])
        #expect(down.status == 0, "\(down.stderr)")
        try expectSame(server.root.file("backup"), pulled)
        try server.root.write("backup/docs/new-on-server.txt", "fresh\n")
        let again = try report(try await cli.run(["--json", "sync", "officer:/backup", pulled]))
        #expect(again.transferred == 1 && again.unchanged == 4)
        try expectSame(server.root.file("backup"), pulled)
    }

    @Test func aDryRunChangesNothingAndFiltersApply() async throws {
        let local = work.path + "/local"
        for name in ["keep.txt", "skip.tmp", "keep.tmp", "cache/x.txt", "sub/cache/y.txt", "sub/z.log", "notes/a.md"] {
            try work.write("local/" + name, name)
        }
        let plan = try await cli.run(["sync", "-n", local, "officer:/dest"])
        #expect(
            plan.status == 0 && plan.stdout.contains("upload    keep.txt (8 B)  new")
                && plan.stdout.contains("mkdir     sub  new"))
        #expect(plan.stderr.contains("Would transfer 7 files (69 B)"))
        #expect(!FileManager.default.fileExists(atPath: server.root.file("dest")))
        // Its JSON is the plan (7 uploads, 4 folders) and the summary: no "done" for what it did not do.
        let records = try await cli.run(["--json", "sync", "-n", local, "officer:/dest"])
        let types = records.stdout.split(separator: "\n").map {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["type"] as? String
        }
        #expect(
            records.status == 0 && types.count == 12 && types.last == "summary"
                && types.dropLast().allSatisfy { $0 == "planned" }, "\(records.stdout)")

        let exclusions = work.file("exclude.list")
        try "# logs\n*.log\n".write(toFile: exclusions, atomically: true, encoding: .utf8)
        let filtered = try await cli.run([
            "sync", local, "officer:/dest", "--include", "keep.tmp", "--exclude", "*.tmp", "--exclude", "cache/",
            "--exclude-from", exclusions,
        ])
        #expect(filtered.status == 0, "\(filtered.stderr)")
        let uploaded = Set(try snapshot(server.root.file("dest")).keys)
        #expect(uploaded == ["keep.txt", "keep.tmp", "notes/a.md"])
        // An excluded file on the server is not deleted either.
        try server.root.write("dest/extra.log", "x")
        let deleting = try report(
            try await cli.run([
                "--json", "sync", "--delete", "--exclude", "*.log", "--exclude", "*.tmp", "--include", "keep.tmp",
                local, "officer:/dest",
            ]))
        #expect(deleting.deleted == 0 && FileManager.default.fileExists(atPath: server.root.file("dest/extra.log")))
    }

    @Test func deletesNothingAfterAnErrorOrBeyondMaxDelete() async throws {
        let local = work.path + "/local"
        try work.write("local/clash", "a file here, a folder on the server")
        try work.write("local/ok.txt", "ok")
        try server.root.write("dest/clash/inside.txt", "server folder")
        for index in 0..<3 { try server.root.write("dest/old\(index).txt", "old") }
        let failed = try await cli.run(["sync", "--delete", local, "officer:/dest"])
        #expect(failed.status == 1)
        #expect(
            failed.stderr.contains("clash: sync: a file on one side and a directory on the other: left alone"),
            "\(failed.stderr)")
        #expect(failed.stderr.contains("not deleted: 1 failure"))
        for index in 0..<3 { #expect(FileManager.default.fileExists(atPath: server.root.file("dest/old\(index).txt"))) }
        #expect(FileManager.default.fileExists(atPath: server.root.file("dest/ok.txt")), "transfers still happen")

        try FileManager.default.removeItem(atPath: local + "/clash")
        try FileManager.default.createDirectory(atPath: local + "/clash", withIntermediateDirectories: true)
        try work.write("local/clash/inside.txt", "server folder")
        let limited = try await cli.run(["sync", "--delete", "--max-delete", "2", local, "officer:/dest"])
        #expect(
            limited.status == 1
                && limited.stderr.contains("3 entries would be deleted, more than the limit of 2: nothing was deleted"))
        #expect(
            limited.stderr.components(separatedBy: "more than the limit of").count == 2, "said once: \(limited.stderr)")
        for index in 0..<3 { #expect(FileManager.default.fileExists(atPath: server.root.file("dest/old\(index).txt"))) }
        let allowed = try await cli.run(["sync", "--delete", "--max-delete", "3", local, "officer:/dest"])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        try expectSame(local, server.root.file("dest"))
    }

    @Test func rootsAreCheckedBeforeAnythingMoves() async throws {
        try server.root.write("afile.txt", "a file\n")
        let local = work.path + "/src"
        for name in ["a", "b", "c"] { try work.write("src/\(name).txt", name) }
        let before = try FileManager.default.contentsOfDirectory(atPath: server.root.path).sorted()
        let onFile = try await cli.run(["sync", local, "officer:/afile.txt"])
        #expect(onFile.status == 5 && onFile.stderr.split(separator: "\n").count == 1, "\(onFile.stderr)")
        #expect(onFile.stderr.contains("officer:/afile.txt: is a file, not a folder"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: server.root.path).sorted() == before, "nothing created")
        #expect(try String(contentsOfFile: server.root.file("afile.txt"), encoding: .utf8) == "a file\n")
        let fromFile = try await cli.run(["sync", "officer:/afile.txt", work.path + "/out"])
        #expect(fromFile.status == 5, "\(fromFile.stderr)")

        // A dry-run pull into a folder that does not exist yet plans the same as the real run, and creates nothing.
        #expect(try await cli.run(["sync", local, "officer:/planned"]).status == 0)
        let missing = work.path + "/not/yet"
        let plan = try await cli.run(["sync", "-n", "officer:/planned", missing])
        #expect(
            plan.status == 0 && plan.stdout.contains("a.txt") && plan.stderr.contains("Would transfer 3 files"),
            "\(plan.stdout)\(plan.stderr)")
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    /// A sync whose one side lies inside the other on the same remote is refused before anything moves, both ways
    /// and with `--delete` (run twice it nested `inner/inner/…`; `--delete` deleted its own source).
    @Test func overlappingSidesAreRefused() async throws {
        try server.root.write("Ov/inner/keep.txt", "keep\n")
        try server.root.write("Ov/top.txt", "top\n")
        let before = try snapshot(server.root.file("Ov"))
        for arguments in [
            ["sync", "officer:/Ov", "officer:/Ov/inner"], ["sync", "--delete", "officer:/Ov/inner", "officer:/Ov"],
            ["copy", "officer:/Ov", "officer:/Ov/"], ["sync", "officer:/Ov/inner", "officer:home:/Ov"],
        ] {
            let refused = try await cli.run(arguments)
            #expect(refused.status == 2, "\(arguments): \(refused.stderr)")
            #expect(
                refused.stderr.split(separator: "\n").count == 1 && refused.stderr.contains("overlap"),
                "\(refused.stderr)")
        }
        #expect(try snapshot(server.root.file("Ov")).mapValues(\.0) == before.mapValues(\.0))
        // Beside each other is fine.
        #expect(try await cli.run(["sync", "officer:/Ov/inner", "officer:/Other"]).status == 0)
    }

    /// A name that is not UTF-8 (a Latin-1 `café.txt`) cannot be a name on the server: each is named as a failure,
    /// its bytes escaped (a folder's contents with it), the rest still goes, exit 1; a pull into a folder holding
    /// them leaves them alone with a warning. Before, the push said "0 errors" and sent nothing of them.
    @Test func namesThatAreNotUTF8AreNamedNotSkipped() async throws {
        let local = work.path + "/latin"
        try work.write("latin/ok.txt", "fine\n")
        // Made by the shell: Foundation's paths are Strings, which cannot hold these bytes.
        let made = try await ProcessRunner.runDetached(
            "/bin/sh",
            [
                "-c",
                #"cd "$0" && printf b > "$(printf 'caf\351.txt')" && printf c > "$(printf '\377\376')" && mkdir "$(printf 'dir\351')" && printf d > "$(printf 'dir\351')/in.txt""#,
                local,
            ])
        try #require(made.status == 0, "\(made.stderr)")
        let pushed = try await cli.run(["sync", local, "officer:/latin"])
        #expect(pushed.status == 1, "\(pushed.stderr)")
        for name in [#"caf\xe9.txt"#, #"\xff\xfe"#, #"dir\xe9"#] {
            #expect(
                pushed.stderr.contains("officer-files: \(name): refused: a name that is not UTF-8\n"),
                "\(pushed.stderr)")
        }
        #expect(
            pushed.stderr.contains(", 3 errors") && pushed.stderr.contains("officer-files: sync: 3 failed"),
            "\(pushed.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: server.root.file("latin")) == ["ok.txt"])
        let pulled = try await cli.run(["sync", "officer:/latin", local])
        #expect(
            pulled.status == 0
                && pulled.stderr.contains(#"warning: caf\xe9.txt: a name that is not UTF-8: left alone"#),
            "\(pulled.stderr)")
    }

    /// Ctrl-C ends a sync with 130 and one line saying what was done; the transfers it cut short are no errors (it
    /// printed "20 errors" and an "upload cancelled" line for each).
    @Test func ctrlCExitsWith130AndOneLine() async throws {
        try work.write("slow/big.bin", bytes(6_000_000, seed: 3))
        for index in 0..<12 { try work.write("slow/small\(index).bin", bytes(400_000, seed: index)) }
        let proxy = try await startFaultProxy(
            target: "127.0.0.1:\(server.service.port)", ["--throttle", "500000", "--direction", "up"])
        let sync = try cli.launchCapturingErrors(
            ["sync", work.path + "/slow", "officer:/slow"],
            environment: ["OFFICER_SERVER": proxy.url, "OFFICER_TOKEN": try cli.savedToken()])
        #expect(await Eventually.signal(SIGINT, to: [sync.process]) { try serverHoldsAPart(largerThan: 100_000) })
        sync.process.waitUntilExit()
        #expect(sync.process.terminationStatus == 130)
        let lines = sync.stderr().split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("interrupted after"), "\(lines)")
        #expect(!lines.contains { $0.contains("cancelled") || $0.contains("error") }, "\(lines)")
    }

    /// A pull meeting a symbolic link where a file goes says so and leaves the link (it said the file "appeared
    /// locally since the sync listed the folder").
    @Test func aPullSaysALinkIsALink() async throws {
        try server.root.write("linked/notes.txt", "server notes\n")
        let local = work.path + "/linked-pull"
        try FileManager.default.createDirectory(atPath: local, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: local + "/notes.txt", withDestinationPath: "/etc/hostname")
        let pulled = try await cli.run(["sync", "officer:/linked", local])
        #expect(pulled.status == 1 && pulled.stderr.contains("is a symbolic link here"), "\(pulled.stderr)")
        #expect(!pulled.stderr.contains("appeared locally"), "\(pulled.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: local + "/notes.txt") == "/etc/hostname")
    }

    @Test func refusesHostileNamesAndNeverWritesOutside() async throws {
        try server.root.write("share/hostile/fine.txt", "fine")
        try server.root.write("share/docs/a.txt", "through a link")
        let outside = work.path + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        let destination = work.path + "/inner/dest"
        try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: destination + "/docs", withDestinationPath: outside)
        let pulled = try await cli.run(["sync", "officer:/share", destination])
        #expect(pulled.status == 1)
        #expect(
            pulled.stderr.contains("refused: the name '..'") && pulled.stderr.contains("refused: a path outside /share")
        )
        #expect(
            pulled.stderr.contains("/share/hostile/nul\\u0000.txt: refused: a NUL byte in the name"), "printed escaped")
        #expect(pulled.stderr.contains("refused: a '/' in the name"))
        #expect(pulled.stderr.contains("not a real folder"), "\(pulled.stderr)")
        #expect(try String(contentsOfFile: destination + "/hostile/fine.txt", encoding: .utf8) == "fine")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: outside).isEmpty, "nothing written through the link")
        #expect(!FileManager.default.fileExists(atPath: work.path + "/inner/escape.txt"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path + "/inner") == ["dest"])
    }

    @Test func doesNotOverwriteALocalFileChangedMidSync() async throws {
        try server.root.write("media/movie.bin", bytes(3_000_000, seed: 5))
        let destination = work.path + "/pull"
        try work.write("pull/movie.bin", "old local version")
        // Paced to take half a minute: a poller starved for seconds on a loaded machine still sees the temp file
        // (at 1 MB/s a loaded run once finished before its first poll).
        let proxy = try await startFaultProxy(target: "127.0.0.1:\(server.service.port)", ["--throttle", "100000"])
        let viaProxy = ["OFFICER_SERVER": proxy.url, "OFFICER_TOKEN": try cli.savedToken()]
        // Watched from a thread of its own: the test process's task pool (two threads here) can be held for longer
        // than the whole transfer by other tests waiting on their commands.
        let edited = EditFlag()
        let watcher = Thread {
            let tempFileSeen = Eventually.blocking(timeout: 120) {
                ((try? FileManager.default.contentsOfDirectory(atPath: destination)) ?? []).contains {
                    $0.hasSuffix(".officer-download")
                }
            }
            guard tempFileSeen else { return }
            try? "edited meanwhile".write(toFile: destination + "/movie.bin", atomically: false, encoding: .utf8)
            edited.set()
        }
        watcher.start()
        let running = Task { try await cli.run(["sync", "officer:/media", destination], environment: viaProxy) }
        let result = try await running.value
        #expect(edited.isSet, "the download's temp file was never seen")
        #expect(
            result.status == 1 && result.stderr.contains("changed locally since the sync compared it: not overwritten"),
            "\(result.stderr)")
        #expect(try String(contentsOfFile: destination + "/movie.bin", encoding: .utf8) == "edited meanwhile")
        #expect(try FileManager.default.contentsOfDirectory(atPath: destination) == ["movie.bin"], "no temp file left")
    }

    @Test func resizesImagesOnPushAndComparesThemByTime() async throws {
        let local = work.path + "/photos"
        try FileManager.default.createDirectory(atPath: local, withIntermediateDirectories: true)
        for step in [
            ["black", work.file("b.v"), "2400", "1600"], ["copy", work.file("b.v"), local + "/wide.jpg[Q=95]"],
        ] {
            #expect(try ProcessRunner.run("/usr/bin/vips", step).status == 0)
        }
        try work.write("photos/notes.txt", "not an image")
        let pushed = try report(try await cli.run(["--json", "sync", "--resize=800", local, "officer:/pics"]))
        #expect(pushed.transferred == 2 && pushed.failures.isEmpty)
        let width = try ProcessRunner.run("/usr/bin/vipsheader", ["-f", "width", server.root.file("pics/wide.jpg")])
            .stdout
        #expect(width.trimmingCharacters(in: .whitespacesAndNewlines) == "800")
        #expect(try String(contentsOfFile: server.root.file("pics/notes.txt"), encoding: .utf8) == "not an image")
        // The prepared copy differs in size from the source, so only the time decides: nothing moves again.
        let again = try report(try await cli.run(["--json", "sync", "--resize=800", local, "officer:/pics"]))
        #expect(again.transferred == 0 && again.unchanged == 2)
        let pull = try await cli.run(["sync", "--resize", "officer:/pics", work.path + "/back"])
        #expect(pull.status == 2 && pull.stderr.contains("--resize prepares images on push"))
        let missing = try await cli.run(["sync", work.path + "/nope", "officer:/nope"])
        #expect(missing.status == 8 && missing.stderr.contains("nope: no such folder"))
        #expect(!FileManager.default.fileExists(atPath: server.root.file("nope")))
        let twoLocal = try await cli.run(["sync", local, work.path + "/other"])
        #expect(twoLocal.status == 2 && twoLocal.stderr.contains("a local folder and a remote folder"))
    }

    @Test func resumesAnInterruptedPushAndHandlesTenThousandFiles() async throws {
        let local = work.path + "/local"
        try work.write("local/big.bin", bytes(8_000_000, seed: 9))
        let proxy = try await startFaultProxy(
            target: "127.0.0.1:\(server.service.port)", ["--throttle", "2000000", "--direction", "up"])
        let viaProxy = ["OFFICER_SERVER": proxy.url, "OFFICER_TOKEN": try cli.savedToken()]
        let process = try cli.launch(["sync", local, "officer:/up"], environment: viaProxy)
        // Killed once the server holds part of the file: the rerun must continue from there.
        #expect(await Eventually.signal(SIGKILL, to: [process]) { try serverHoldsAPart(largerThan: 1_000_000) })
        process.waitUntilExit()
        // The proxy goes too and comes back on the same port at once: the server locks each upload, so the
        // rerun's first request waits for (and stops) the killed PATCH instead of reading an offset that then moves.
        proxy.stop()
        #expect(!FileManager.default.fileExists(atPath: server.root.file("up/big.bin")))
        // The same address again: the journal knows the upload by its URL.
        let again = try await startFaultProxy(
            target: "127.0.0.1:\(server.service.port)", ["--listen", String(proxy.port)])
        defer { again.stop() }
        let rerun = try await cli.run(["--json", "sync", local, "officer:/up"], environment: viaProxy)
        #expect(rerun.status == 0, "\(rerun.stderr)\n\(rerun.stdout)")
        #expect(try TransferJournal(path: cli.journalPath).uploads().isEmpty)
        try expectSame(local, server.root.file("up"))

        let many = work.path + "/many"
        for folder in 0..<20 {
            let path = many + "/d\(folder)"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            for index in 0..<500 {
                _ = FileManager.default.createFile(
                    atPath: path + "/f\(index)", contents: Data("\(folder)-\(index)".utf8))
            }
        }
        let pushed = try report(try await cli.run(["--json", "sync", "--transfers", "8", many, "officer:/many"]))
        #expect(pushed.transferred == 10_000 && pushed.failures.isEmpty)
        let noop = try report(try await cli.run(["--json", "sync", many, "officer:/many"]))
        #expect(noop.transferred == 0 && noop.unchanged == 10_000)
        try expectSame(many, server.root.file("many"))
    }
}

/// Set once by a watcher thread, read by the test.
private final class EditFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    func set() { lock.withLock { value = true } }

    var isSet: Bool { lock.withLock { value } }
}

/// A server that goes away during a sync: waited for, as `watch` waits, and the sync carries on when it is back.
@Suite struct SyncOutageTests {
    let cli = CLIRunner()
    let work = TemporaryDirectory(prefix: "outage")

    /// The server restarts in the middle of a push into new folders: the files that met the outage (and those in
    /// folders whose creation did) wait for it and go once it answers; nothing is left unsent and uncounted (350
    /// files were neither sent nor listed, and every file printed its own error for 70 s).
    @Test func aServerThatComesBackIsWaitedFor() async throws {
        let root = TemporaryDirectory(prefix: "officer-root")
        let state = TemporaryDirectory(prefix: "officer-state")
        let port = try NginxServer.freePort()
        var server: ReferenceServer? = try await ReferenceServer.start(root: root, state: state, port: port)
        #expect(try await cli.login(server!).status == 0)
        for folder in 0..<4 {
            for index in 0..<15 { try work.write("tree/d\(folder)/f\(index).bin", Data(repeating: 7, count: 60_000)) }
        }
        // Paced to take half a minute, so a poller starved on a loaded machine still finds it under way.
        let proxy = try await startFaultProxy(
            target: "127.0.0.1:\(port)", ["--throttle", "60000", "--direction", "up"])
        defer { proxy.stop() }
        let errors = work.file("errors.txt")
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        let sync = Process()
        sync.executableURL = URL(fileURLWithPath: ProcessRunner.cliPath)
        // Waited for as long as a loaded machine may take to start the server again (the default 60 s was not).
        sync.arguments = ["sync", "--transfers", "2", "--server-wait", "900", work.file("tree"), "officer:/pushed"]
        sync.environment = cli.environment(["OFFICER_SERVER": proxy.url, "OFFICER_TOKEN": try cli.savedToken()])
        sync.standardOutput = FileHandle.nullDevice
        sync.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
        try ProcessRunner.spawning { try sync.run() }
        let stored: @Sendable () -> Int = {
            ((try? FileManager.default.subpathsOfDirectory(atPath: root.file("pushed"))) ?? []).count
        }
        // Killed from the polling thread the moment the push is under way: in a full run the test's own task got
        // a thread back only after the whole push.
        let first = server!.service
        #expect(await Eventually.wait(timeout: 60, { stored() >= 4 }, then: { first.kill() }), "the push under way")
        server = nil
        // Down until the sync, its own retries spent, says it waits for the server: then back, started from the
        // polling thread (in a full run the test's own task got a thread back after the sync's 60 s were over).
        let said: @Sendable () -> Bool = {
            ((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "").contains(
                "waiting up to 900 s for the server")
        }
        let restarted = LockedValue<ReferenceServer?>(nil)
        #expect(
            await Eventually.wait(timeout: 90, { said() }) {
                let back = try? ReferenceServer.startBlocking(root: root, state: state, port: port)
                restarted.withLock { $0 = back }
            },
            "the sync waits for the server: \((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")")
        let back = try #require(restarted.current, "the server came back")
        defer { back.service.kill() }
        sync.waitUntilExit()
        let told = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        #expect(sync.terminationStatus == 0, "\(told)")
        for folder in 0..<4 {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: root.file("pushed/d\(folder)"))) ?? []
            #expect(names.filter { $0.hasSuffix(".bin") }.count == 15, "d\(folder): \(names.sorted())")
        }
    }
}
