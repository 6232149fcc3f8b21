import FileModel
import Foundation
import Journal
import TestSupport
import Testing
import Transfer

/// The CLI's state (cache bodies, the journal, the queue) under damage and full or read-only disks: nothing
/// wrong is handed out, nothing leaves the user stuck, and every message names the folder.
@Suite(.serialized) struct StateDurabilityTests {
    let cli = CLIRunner()
    let work = TemporaryDirectory(prefix: "state-work")

    var cacheDirectory: String { cli.home.path + "/.cache/officer-files/content" }

    /// The one cached body's file.
    func cachedObject() throws -> String {
        let objects = cacheDirectory + "/objects"
        let files = try FileManager.default.contentsOfDirectory(atPath: objects).flatMap { folder in
            try FileManager.default.contentsOfDirectory(atPath: objects + "/" + folder).map {
                objects + "/" + folder + "/" + $0
            }
        }
        #expect(files.count == 1, "\(files)")
        return try #require(files.first)
    }

    /// Flips one byte in place: same size, same mtime folder, different bytes.
    func flipByte(_ path: String, at offset: UInt64 = 100) throws {
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: offset)
        let byte = try #require(try handle.read(upToCount: 1)?.first)
        try handle.seek(toOffset: offset)
        try handle.write(contentsOf: Data([byte ^ 0xff]))
        try handle.close()
    }

    @discardableResult
    static func shell(_ arguments: [String]) throws -> ProcessResult {
        try ProcessRunner.run("/usr/bin/env", arguments)
    }

    @Test func aCachedBodyWithOneByteFlippedIsNeverHandedOut() async throws {
        let server = try await ReferenceServer.start()
        #expect(try await cli.login(server).status == 0)
        let text = String(repeating: "the right bytes\n", count: 2000)
        try server.root.write("docs/notes.txt", text)
        #expect(try await cli.run(["cat", "officer:/docs/notes.txt"]).stdout == text)

        // On a 304: the damaged copy is dropped and the file fetched again.
        try flipByte(try cachedObject())
        let cat = try await cli.run(["cat", "officer:/docs/notes.txt"])
        #expect(cat.status == 0 && cat.stdout == text, "\(cat.stderr)")
        #expect(cat.stderr.contains("the cached copy of officer:/docs/notes.txt was damaged"), "\(cat.stderr)")

        // A file destination: the same, never the damaged bytes under the final name.
        try flipByte(try cachedObject())
        let get = try await cli.run(["get", "officer:/docs/notes.txt", "copy.txt"], in: work.path)
        #expect(get.status == 0 && get.stderr.contains("was damaged"), "\(get.stderr)")
        #expect(try String(contentsOfFile: work.file("copy.txt"), encoding: .utf8) == text)

        // Offline the damage is said, not printed.
        #expect(try await cli.run(["cat", "officer:/docs/notes.txt"]).status == 0)
        try flipByte(try cachedObject())
        let offline = try await cli.run(["--offline", "cat", "officer:/docs/notes.txt"])
        #expect(offline.status != 0 && offline.stdout.isEmpty, "\(offline.stdout.prefix(80))")
        #expect(offline.stderr.contains("the cached copy of officer:/docs/notes.txt is damaged"), "\(offline.stderr)")
        let offlineGet = try await cli.run(
            ["--offline", "get", "officer:/docs/notes.txt", "offline.txt"], in: work.path)
        #expect(offlineGet.status != 0 && !FileManager.default.fileExists(atPath: work.file("offline.txt")))

        // verify reads every body: a pinned one that is damaged is reported, with how to fetch it again.
        #expect(try await cli.run(["cache", "pin", "officer:/docs/notes.txt"]).status == 0)
        try flipByte(try cachedObject())
        let verify = try await cli.run(["cache", "verify"])
        #expect(verify.status == 1, "\(verify.stdout) \(verify.stderr)")
        #expect(verify.stderr.contains("damaged: body of officer:/docs/notes.txt"), "\(verify.stderr)")
        #expect(
            verify.stderr.contains("it was pinned: `officer-files cache pin officer:/docs/notes.txt`"),
            "\(verify.stderr)")
        let again = try await cli.run(["cache", "verify"])
        #expect(again.status == 0 && again.stdout.contains("consistent"))
    }

    /// Writes one queued change into the journal (offline), so it has something to lose.
    func queueOneChange(_ path: String = "officer:/later") async throws {
        let queued = try await cli.run(["--server", "http://127.0.0.1:9", "--offline", "mkdir", "--queue", path])
        #expect(queued.status == 0, "\(queued.stderr)")
    }

    func damagedCopies() -> [String] {
        let folder = (cli.journalPath as NSString).deletingLastPathComponent
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter {
            $0.hasPrefix("journal.sqlite.damaged-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm")
        }
    }

    @Test(arguments: ["garbled", "truncated", "empty"])
    func aDamagedJournalIsMovedAsideWithOneWarning(_ damage: String) async throws {
        try await queueOneChange()
        let journal = cli.journalPath
        var data = try Data(contentsOf: URL(fileURLWithPath: journal))
        #expect(data.count >= 8192)
        switch damage {
        case "garbled":
            // Every page after the first (a page the format's migration freed may be all a narrower range hits).
            let garbled = data.count - 4096
            data.replaceSubrange(4096..., with: (0..<garbled).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        case "truncated": data = data.prefix(data.count / 2 + 100)
        default: data = Data()
        }
        try data.write(to: URL(fileURLWithPath: journal))
        let listed = try await cli.run(["--server", "http://127.0.0.1:9", "queue", "list"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let warnings = listed.stderr.split(separator: "\n").filter { $0.hasPrefix("warning: the journal") }
        #expect(warnings.count == 1, "\(listed.stderr)")
        #expect(
            listed.stderr.contains("was damaged") && listed.stderr.contains("moved to \(journal).damaged-"),
            "\(listed.stderr)")
        if damage == "empty" {
            #expect(
                listed.stderr.contains("empty (0 bytes)")
                    && listed.stderr.contains("lost (unreadable): whatever it held"))
        }
        #expect(damagedCopies().count == 1)
        // The new journal works, and the warning is not repeated (another folder: what was saved of the damaged
        // journal may hold the first, and the queue refuses the same mkdir twice).
        try await queueOneChange("officer:/later-again")
        let again = try await cli.run(["--server", "http://127.0.0.1:9", "queue", "list"])
        #expect(
            again.status == 0 && !again.stderr.contains("warning") && again.stdout.contains("mkdir"), "\(again.stderr)")
    }

    @Test func aSecondQueueRunSaysOneIsInProgressAndAppliesNothing() async throws {
        let server = try await ReferenceServer.start()
        #expect(try await cli.login(server).status == 0)
        #expect(try await cli.run(["--offline", "mkdir", "--queue", "officer:/later"]).status == 0)
        let journal = try TransferJournal(path: cli.journalPath)
        do {
            let claim = try #require(journal.claimQueueReplay())
            let second = try await cli.run(["queue", "run"])
            #expect(
                second.status == 0 && second.stdout.contains("a queue run is already in progress"),
                "\(second.stdout) \(second.stderr)")
            #expect(!FileManager.default.fileExists(atPath: server.root.file("later")))
            withExtendedLifetime(claim) {}
        }
        let run = try await cli.run(["queue", "run"])
        #expect(run.status == 0 && run.stdout.contains("1 applied"), "\(run.stdout) \(run.stderr)")
        var isFolder: ObjCBool = false
        #expect(
            FileManager.default.fileExists(atPath: server.root.file("later"), isDirectory: &isFolder)
                && isFolder.boolValue)
    }

    @Test func aFinishedDownloadIsDoneWhenItsJournalDiskFillsAndLeavesNoEntry() async throws {
        let server = try await ReferenceServer.start()
        #expect(try await cli.login(server).status == 0)
        let source = try server.root.write("big.bin", TestBytes.pattern(12_000_000, seed: 7))
        let state = work.file("state")
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        #expect(try Self.shell(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", state]).status == 0)
        defer { _ = try? Self.shell(["umount", "-l", state]) }
        let environment = ["XDG_STATE_HOME": state]
        let cli = cli, destination = work.file("big.bin")
        let process = Task {
            try await cli.run(
                ["--no-cache", "get", "--bwlimit", "1M", "officer:/big.bin", destination], environment: environment)
        }
        let journal = state + "/officer-files/journal.sqlite"
        // The disk fills while the ranges stream (a dozen seconds at 1 MB/s): the journal can no longer be written.
        // Filled from the polling thread as soon as the download is journaled: a loaded run's test body, waiting
        // for a thread of the shared pool, once filled it after the 2 s download had ended.
        #expect(
            await Eventually.wait(timeout: 600) {
                ((try? TransferJournal(path: journal).downloads()) ?? []).count == 1
            } then: {
                _ = try? Self.shell(["dd", "if=/dev/zero", "of=\(state)/fill", "bs=64k"])
            })
        let result = try await process.value
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "is complete, but the journal could not be updated: no space left on the device holding \(state)/officer-files"
            ), "\(result.stderr)")
        let expected = try ProcessRunner.sha256(of: source)
        #expect(try ProcessRunner.sha256(of: work.file("big.bin")) == expected)
        let listed = try await cli.run(["transfers", "list"], environment: environment)
        #expect(
            listed.status == 0 && listed.stdout.contains("No unfinished transfers."),
            "\(listed.stdout) \(listed.stderr)")
    }

    @Test func fullAndReadOnlyStateFoldersAreNamedInTheUsersTerms() async throws {
        let mount = work.file("mount")
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        #expect(try Self.shell(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", mount]).status == 0)
        defer { _ = try? Self.shell(["umount", "-l", mount]) }
        try FileManager.default.createDirectory(atPath: mount + "/officer-files", withIntermediateDirectories: true)
        _ = try? Self.shell(["dd", "if=/dev/zero", "of=\(mount)/fill", "bs=64k"])
        let full = try await cli.run(
            ["--server", "http://127.0.0.1:9", "cache", "stats"], environment: ["XDG_CACHE_HOME": mount])
        #expect(
            full.status == 8
                && full.stderr.contains("no space left on the device holding \(mount)/officer-files/content"),
            "\(full.stderr)")
        #expect(!full.stderr.contains("SQLite"), "\(full.stderr)")

        try FileManager.default.removeItem(atPath: mount + "/fill")
        #expect(try Self.shell(["mount", "-o", "remount,ro", mount]).status == 0)
        let readOnly = try await cli.run(
            ["--server", "http://127.0.0.1:9", "queue", "list"], environment: ["XDG_STATE_HOME": mount])
        #expect(
            readOnly.status == 8 && readOnly.stderr.contains("cannot write to \(mount)/officer-files (read-only)"),
            "\(readOnly.stderr)")
        #expect(
            !readOnly.stderr.contains("SQLite") && !readOnly.stderr.contains("unable to open"), "\(readOnly.stderr)")
    }

    /// A full or read-only destination is told in the user's terms (no Foundation text, no temp file's name), in
    /// words and in JSON; a sync stops at the first full disk and says how many files it did not try.
    @Test func aFullOrReadOnlyDestinationIsToldInTheUsersTermsAndStopsASync() async throws {
        let server = try await ReferenceServer.start()
        #expect(try await cli.login(server).status == 0)
        for index in 1...6 {
            try server.root.write("many/f\(index).bin", Data(repeating: UInt8(index), count: 700_000))
        }
        let mount = work.file("small")
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        #expect(try Self.shell(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", mount]).status == 0)
        defer { _ = try? Self.shell(["umount", "-l", mount]) }

        // Two files fit, the third fills the disk; the last three are not tried.
        let full = try await cli.run(["--no-cache", "sync", "--transfers", "1", "officer:/many", mount + "/many"])
        #expect(full.status != 0)
        let failed = full.stderr.split(separator: "\n").filter {
            $0.contains(": download: ") && $0.hasPrefix("officer-files: ")
        }
        #expect(failed.count == 1 && failed[0].contains("\(mount)/many: no space left on the disk"), "\(full.stderr)")
        #expect(full.stderr.contains("stopped at the first full disk: 3 files not tried"), "\(full.stderr)")
        #expect(
            !full.stderr.contains(".officer-download") && !full.stderr.contains(".officer-sync"),
            "no temp file's name: \(full.stderr)")
        let arrived = try FileManager.default.contentsOfDirectory(atPath: mount + "/many").filter { !$0.hasPrefix(".") }
            .sorted()
        #expect(arrived == ["f1.bin", "f2.bin"], "\(arrived)")
        let get = try await cli.run(["--no-cache", "get", "officer:/many/f6.bin", mount + "/"])
        #expect(
            get.status == 8 && get.stderr.contains("\(mount): no space left on the disk")
                && !get.stderr.contains(".officer-download"), "\(get.stderr)")

        // Read-only: the folder the sync cannot make, in the system's words made ours.
        #expect(try Self.shell(["mount", "-o", "remount,ro", mount]).status == 0)
        let words = try await cli.run(["sync", "officer:/many", mount + "/new"])
        #expect(words.status != 0 && words.stderr.contains("\(mount)/new: read-only file system"), "\(words.stderr)")
        let json = try await cli.run(["--json", "sync", "officer:/many", mount + "/new"])
        #expect(json.stdout.contains("\(mount)/new: read-only file system"), "\(json.stdout)")
        for output in [words.stderr, json.stdout, json.stderr] {
            #expect(!output.contains("NSCocoaErrorDomain") && !output.contains("Error Domain"), "\(output)")
        }
    }

    @Test func transfersCleanLeavesAnUploadThatARunningPutHolds() async throws {
        let server = try await ReferenceServer.start()
        #expect(try await cli.login(server).status == 0)
        let local = try work.write("up.bin", TestBytes.pattern(8_000_000, seed: 13))
        let cli = cli
        let put = Task { try await cli.run(["put", "--bwlimit", "1M", local, "officer:/up.bin"]) }
        // Cleaned from the polling thread the moment the upload is journaled: under a full run's load, the test's
        // own task got a thread back only after the put had finished.
        let cleaned = LockedValue<ProcessResult?>(nil)
        #expect(
            await Eventually.wait(timeout: 30) {
                ((try? (cli.watchedJournal()?.uploads() ?? [])) ?? []).count == 1
            } then: {
                let result = try? ProcessRunner.run(
                    ProcessRunner.cliPath, ["transfers", "clean"], environment: cli.environment())
                cleaned.withLock { $0 = result }
            })
        let clean = try #require(cleaned.current)
        #expect(
            clean.status == 0 && clean.stdout.contains("a running transfer holds it"), "\(clean.stdout) \(clean.stderr)"
        )
        let result = try await put.value
        #expect(result.status == 0 && !result.stderr.contains("starting over"), "\(result.stderr)")
        let expected = try ProcessRunner.sha256(of: local)
        #expect(try ProcessRunner.sha256(of: server.root.file("up.bin")) == expected)
    }
}
