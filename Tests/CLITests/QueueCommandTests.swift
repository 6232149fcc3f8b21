import Foundation
import TestSupport
import Testing

/// `--queue` and `queue list|run|drop` end to end: writes made offline or while the server is down are replayed
/// in order, a write whose paths changed on the server meanwhile is held with those behind it, and a replay run
/// twice or killed halfway applies nothing twice.
@Suite struct QueueCommandTests {
    let cli = CLIRunner()
    let work = TemporaryDirectory(prefix: "queue-work")

    func names(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    /// `queue list` keeps its columns still from #1 to #11 (they shifted at #10).
    @Test func queueListColumnsHoldStill() async throws {
        let server = try await ReferenceServer.start(inMemory: true)
        #expect(try await cli.login(server).status == 0)
        for index in 1...11 {
            let queued = try await cli.run(["--offline", "mkdir", "--queue", "officer:/q\(index)"])
            #expect(queued.status == 0, "\(queued.stderr)")
        }
        let listed = try await cli.run(["queue", "list"])
        let columns = Set(
            listed.stdout.split(separator: "\n").map { $0.range(of: "mkdir")?.lowerBound.utf16Offset(in: $0) })
        #expect(columns.count == 1 && columns.first! != nil, "\(listed.stdout)")
    }

    @Test func offlineWritesReplayInOrderAndAConflictHoldsWhatDependsOnIt() async throws {
        let server = try await ReferenceServer.start()
        #expect(try await cli.login(server).status == 0)
        for name in ["a.txt", "b.txt", "c.txt"] { try server.root.write("docs/\(name)", "first \(name)\n") }
        // What the client has seen: the listings the queued writes take their expectations from.
        #expect(try await cli.run(["ls", "officer:/docs"]).status == 0)
        #expect(try await cli.run(["ls", "officer:/"]).status == 0)
        let local = try work.write("notes.md", "# notes\n")
        let replacement = try work.write("c.txt", "replacement\n")

        let offline = ["--offline"]
        for arguments in [
            ["mkdir", "--queue", "officer:/new"],
            ["put", "--queue", local, "officer:/new/"],
            ["mv", "--queue", "officer:/docs/a.txt", "officer:/docs/a2.txt"],
            ["rm", "--queue", "officer:/docs/b.txt"],
            ["put", "--queue", "-f", replacement, "officer:/docs/c.txt"],
            ["mv", "--queue", "officer:/docs/c.txt", "officer:/docs/c-old.txt"],
        ] {
            let queued = try await cli.run(offline + arguments)
            #expect(queued.status == 0, "\(arguments): \(queued.stderr)")
            #expect(queued.stderr.contains("queued (offline): #"), "\(queued.stderr)")
        }
        // A change to a path whose version was never seen is refused, not queued blind.
        let blind = try await cli.run(offline + ["rm", "--queue", "officer:/elsewhere/x.txt"])
        #expect(
            blind.status == 9
                && blind.stderr.contains("officer:/elsewhere/x.txt: its version on the server is unknown here"),
            "\(blind.stderr)")
        let listed = try await cli.run(["queue", "list"])
        #expect(
            listed.stdout.split(separator: "\n").count == 6
                && listed.stdout.contains("pending  mv officer:/docs/a.txt officer:/docs/a2.txt"), "\(listed.stdout)")
        #expect(names(server.root.path) == ["docs"], "nothing reached the server while offline")

        // Meanwhile someone else changes c.txt on the server.
        try server.root.write("docs/c.txt", "changed on the server, longer than before\n")
        let run = try await cli.run(["queue", "run"])
        #expect(run.status == 5, "\(run.stderr)")
        #expect(
            run.stderr.contains("conflict #5 put -f \(replacement) officer:/docs/c.txt: officer:/docs/c.txt is"),
            "\(run.stderr)")
        #expect(
            run.stderr.contains("held #6 mv officer:/docs/c.txt officer:/docs/c-old.txt: waits for: put -f"),
            "\(run.stderr)")
        #expect(run.stdout.contains("Queue: 4 applied, 1 conflict, 1 held behind them."), "\(run.stdout)")
        #expect(names(server.root.file("docs")) == ["a2.txt", "c.txt"])
        #expect(FileManager.default.contents(atPath: server.root.file("new/notes.md")) == Data("# notes\n".utf8))
        #expect(
            FileManager.default.contents(atPath: server.root.file("docs/c.txt"))
                == Data("changed on the server, longer than before\n".utf8))

        // Again: nothing applied twice, the held ones still held.
        let again = try await cli.run(["queue", "run"])
        #expect(
            again.status == 5 && again.stdout.contains("Queue: 0 applied, 1 conflict, 1 held"),
            "\(again.stdout) \(again.stderr)")
        #expect(
            names(server.root.file("docs")) == ["a2.txt", "c.txt"] && names(server.root.file("new")) == ["notes.md"])
        let held = try await cli.run(["queue"])
        #expect(held.stdout.contains("#5  conflict") && held.stdout.contains("#6  blocked"), "\(held.stdout)")
        #expect(try await cli.run(["queue", "drop", "5", "#6"]).status == 0)
        #expect(try await cli.run(["queue", "list"]).stdout == "Nothing queued.\n")
        let missing = try await cli.run(["queue", "drop", "99"])
        #expect(missing.status == 4 && missing.stderr.contains("no queued write #99"))
    }

    /// A queued change is placed as the server will be when it is replayed: a folder a queued `put -p` or `mkdir`
    /// makes takes a later queued `mv` or `cp` in, written `officer:/New/` or `officer:/New`.
    @Test func aFolderTheQueueMakesTakesALaterQueuedMoveIn() async throws {
        let server = try await ReferenceServer.start()
        #expect(try await cli.login(server).status == 0)
        for name in ["x.txt", "y.txt", "z.txt"] { try server.root.write(name, "\(name)\n") }
        #expect(try await cli.run(["ls", "officer:/"]).status == 0)
        let local = try work.write("a.txt", "a\n")
        for arguments in [
            ["put", "--queue", "-p", local, "officer:/New/"],
            ["mv", "--queue", "officer:/x.txt", "officer:/New/"],
            ["mkdir", "--queue", "officer:/Made"],
            ["mv", "--queue", "officer:/y.txt", "officer:/Made"],
            ["cp", "--queue", "officer:/z.txt", "officer:/New"],
        ] {
            let queued = try await cli.run(["--offline"] + arguments)
            #expect(
                queued.status == 0 && queued.stderr.contains("queued (offline): #"), "\(arguments): \(queued.stderr)")
        }
        let listed = try await cli.run(["queue", "list"])
        for line in [
            "mv officer:/x.txt officer:/New/x.txt", "mv officer:/y.txt officer:/Made/y.txt",
            "cp officer:/z.txt officer:/New/z.txt",
        ] {
            #expect(listed.stdout.contains(line), "\(listed.stdout)")
        }
        let run = try await cli.run(["queue", "run"])
        #expect(
            run.status == 0 && run.stdout.contains("Queue: 5 applied, 0 conflicts, 0 held behind them."),
            "\(run.stdout) \(run.stderr)")
        #expect(
            names(server.root.file("New")) == ["a.txt", "x.txt", "z.txt"]
                && names(server.root.file("Made")) == ["y.txt"])
        #expect(names(server.root.path) == ["Made", "New", "z.txt"])
    }

    /// A kept change the server refuses when it is sent (its folder never came) is held with the server's reason,
    /// and the changes after it still go: the replay used to stop there, leaving them pending unsaid.
    @Test func aChangeTheServerRefusesIsHeldAndTheRestGoes() async throws {
        let server = try await ReferenceServer.start()
        #expect(try await cli.login(server).status == 0)
        try server.root.write("keep.txt", "keep\n")
        #expect(try await cli.run(["ls", "officer:/"]).status == 0)
        let local = try work.write("q.txt", "q\n")
        for arguments in [["put", "--queue", local, "officer:/never/"], ["mkdir", "--queue", "officer:/Later"]] {
            let queued = try await cli.run(["--offline"] + arguments)
            #expect(queued.status == 0, "\(arguments): \(queued.stderr)")
        }
        let run = try await cli.run(["queue", "run"])
        #expect(run.status == 5 && run.stdout.contains("1 applied, 1 conflict"), "\(run.stdout) \(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: server.root.file("Later")))
        let listed = try await cli.run(["queue", "list"])
        #expect(listed.stdout.contains("conflict") && listed.stdout.contains("officer:/never"), "\(listed.stdout)")
    }

    /// The client's own changes keep its cached listings true: offline, `ls` shows what it made, moved and
    /// removed, and a file it just uploaded can be queued for removal (its version is known).
    @Test func ownWritesKeepTheCachedListingsTrue() async throws {
        let server = try await ReferenceServer.start()
        #expect(try await cli.login(server).status == 0)
        try server.root.write("docs/a.txt", "a\n")
        #expect(try await cli.run(["ls", "officer:/docs"]).status == 0)
        let local = try work.write("fresh.txt", "fresh\n")
        #expect(try await cli.run(["put", local, "officer:/docs/"]).status == 0)
        #expect(try await cli.run(["mkdir", "officer:/docs/made"]).status == 0)
        #expect(try await cli.run(["mv", "officer:/docs/a.txt", "officer:/docs/b.txt"]).status == 0)
        let shown = try await cli.run(["--offline", "ls", "officer:/docs"])
        #expect(shown.stdout == "made/\nb.txt\nfresh.txt\n", "\(shown.stdout)\(shown.stderr)")
        let queued = try await cli.run(["--offline", "rm", "--queue", "officer:/docs/fresh.txt"])
        #expect(queued.status == 0 && queued.stderr.contains("queued (offline)"), "\(queued.stderr)")
        let run = try await cli.run(["queue", "run"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: server.root.file("docs/fresh.txt")))
        let after = try await cli.run(["--offline", "ls", "officer:/docs"])
        #expect(after.stdout == "made/\nb.txt\n", "the replayed removal too: \(after.stdout)")
    }

    @Test func aServerThatIsDownQueuesAndAKilledReplayAppliesNothingTwice() async throws {
        let root = TemporaryDirectory(prefix: "queue-root")
        let state = TemporaryDirectory(prefix: "queue-state")
        let port = try NginxServer.freePort()
        var server: ReferenceServer? = try await ReferenceServer.start(root: root, state: state, port: port)
        #expect(try await cli.login(server!).status == 0)
        try root.write("inbox/keep.txt", "keep\n")
        #expect(try await cli.run(["ls", "officer:/"]).status == 0)
        #expect(try await cli.run(["ls", "officer:/inbox"]).status == 0)
        server!.service.stop()
        server = nil

        // The server is down: the write is tried, then queued.
        let down = try await cli.run(["mkdir", "--queue", "officer:/batch"])
        #expect(
            down.status == 0 && down.stderr.contains("queued (server unreachable): #1 mkdir officer:/batch"),
            "\(down.stderr)")
        let withoutQueue = try await cli.run(["mkdir", "officer:/other"])
        #expect(withoutQueue.status == 6, "without --queue it fails as before: \(withoutQueue.stderr)")
        var locals: [String] = []
        for index in 0..<40 {
            locals.append(
                try work.write("batch/file-\(index).bin", Data(repeating: UInt8(index), count: 1_000_000 + index)))
        }
        let queued = try await cli.run(["--offline", "put", "--queue"] + locals + ["officer:/batch/"])
        #expect(queued.status == 0, "\(queued.stderr)")
        #expect(
            try await cli.run(["--offline", "mv", "--queue", "officer:/inbox/keep.txt", "officer:/kept.txt"]).status
                == 0)

        server = try await ReferenceServer.start(root: root, state: state, port: port)
        // Killed while it replays, then run again to the end.
        let replay = try cli.launch(["queue", "run"])
        let batch = root.file("batch")
        let landed = await Eventually.signal(SIGKILL, to: [replay], timeout: 60) {
            ((try? FileManager.default.contentsOfDirectory(atPath: batch))?.filter { !$0.hasPrefix(".") }.count ?? 0)
                >= 5
        }
        replay.waitUntilExit()
        #expect(landed, "the replay got somewhere before the kill")
        #expect(
            replay.terminationReason == .uncaughtSignal && names(batch).count < 40,
            "killed halfway: \(names(batch).count) of 40 there")
        let rest = try await cli.run(["queue", "run"])
        #expect(rest.status == 0, "\(rest.stderr)")
        #expect(names(batch) == (0..<40).map { "file-\($0).bin" }.sorted())
        for index in 0..<40 {
            #expect(
                try await ProcessRunner.sha256Detached(of: batch + "/file-\(index).bin")
                    == (try await ProcessRunner.sha256Detached(of: locals[index])))
        }
        #expect(names(root.path) == ["batch", "inbox", "kept.txt"] && names(root.file("inbox")).isEmpty)
        #expect(try await cli.run(["queue", "list"]).stdout == "Nothing queued.\n")
        let twice = try await cli.run(["queue", "run"])
        #expect(twice.status == 0 && twice.stdout.contains("Queue: 0 applied"), "\(twice.stdout)")
        _ = server
    }
}
