import FileModel
import Foundation
import Journal
import Officer
import OfficerFilesCLI
import TestSupport
import Testing

/// Nothing is reported done that is not done: an upload only when the server holds those bytes under that name, a
/// download only when the bytes are of one version, whatever the disk, the source or the server did meanwhile.
@Suite struct DoneMeansStoredTests {
    let cli = CLIRunner()
    let work = TemporaryDirectory(prefix: "done-work", inMemory: true)

    func report(_ result: ProcessResult) throws -> SyncSummaryRecord {
        try JSONDecoder().decode(
            SyncSummaryRecord.self, from: Data((result.stdout.split(separator: "\n").last ?? "").utf8))
    }

    func journaledUpload() throws -> Int64 {
        try (cli.watchedJournal()?.uploads() ?? []).reduce(0) { $0 + $1.parts.reduce(0) { $0 + $1.offset } }
    }

    func journaledDownload() throws -> Int64 {
        try (cli.watchedJournal()?.downloads() ?? []).reduce(0) { $0 + $1.segments.reduce(0) { $0 + $1.done } }
    }

    /// The server's root on a small tmpfs, its tus state elsewhere: the last request cannot be placed. Before, `put`
    /// said "Uploaded" (the HEAD that followed the 500 said the offset was complete) and `sync` "0 errors".
    @Test func anUploadTheServerCouldNotStoreIsNotDone() async throws {
        try await HeavyWork.shared.run {
            let disk = try TmpfsMount(size: "6m", prefix: "officer-small-root")
            defer { disk.unmount() }
            let state = TemporaryDirectory(prefix: "officer-state", inMemory: true)
            let server = try await ReferenceServer.start(
                root: disk.directory, state: state, port: try NginxServer.freePort())
            #expect(try await cli.login(server).status == 0)
            let big = try await randomFile(at: work.file("big.bin"), mebibytes: 9)
            let put = try await cli.run(["put", big, "officer:/"])
            #expect(put.status == 10, "\(put.stderr)")
            #expect(put.stderr.contains("no space left") && !put.stderr.contains("Uploaded"), "\(put.stderr)")
            #expect(!FileManager.default.fileExists(atPath: disk.path + "/big.bin"))
            #expect(try journaledUpload() == 0, "the upload the server could not place was given up on the server")
            #expect(put.stderr.contains("sends it again from the start"), "\(put.stderr)")

            for index in 0..<3 { _ = try await randomFile(at: work.file("three/f\(index).bin"), mebibytes: 3) }
            let sync = try await cli.run(["--json", "sync", work.file("three"), "officer:/three"])
            #expect(sync.status != 0)
            let first = try report(sync)
            #expect(!first.failures.isEmpty && first.transferred < 3, "\(sync.stderr)")
            let held = (try? FileManager.default.contentsOfDirectory(atPath: disk.path + "/three")) ?? []
            #expect(held.count == first.transferred, "as many files on the server as reported transferred")

            // Room again: the reruns finish, and the server holds the exact bytes.
            try disk.resize("64m")
            let again = try await cli.run(["put", big, "officer:/"])
            #expect(again.status == 0, "\(again.stderr)")
            #expect(try ProcessRunner.sha256(of: disk.path + "/big.bin") == (try ProcessRunner.sha256(of: big)))
            let second = try report(try await cli.run(["--json", "sync", work.file("three"), "officer:/three"]))
            #expect(second.failures.isEmpty && second.transferred == 3 - first.transferred)
            for index in 0..<3 {
                #expect(
                    try ProcessRunner.sha256(of: disk.path + "/three/f\(index).bin")
                        == (try ProcessRunner.sha256(of: work.file("three/f\(index).bin"))))
            }
            server.service.stop()
        }
    }

    /// The server's files and its unfinished uploads on one small disk, as a real server keeps them: an upload that
    /// fills it is given up on the server, so the space comes back (before, the partial upload held the disk full
    /// and every other write failed until `transfers clean`).
    @Test func anUploadThatFillsTheServerGivesTheSpaceBack() async throws {
        try await HeavyWork.shared.run {
            let disk = try TmpfsMount(size: "8m", prefix: "officer-full-disk")
            defer { disk.unmount() }
            let unused = TemporaryDirectory(prefix: "officer-state", inMemory: true)
            let server = try await ReferenceServer.start(
                root: disk.directory, state: unused, port: try NginxServer.freePort(),
                arguments: ["--state", disk.path + "/.officer-state"])
            defer { server.service.stop() }
            #expect(try await cli.login(server).status == 0)
            let big = try await randomFile(at: work.file("big.bin"), mebibytes: 12)
            let put = try await cli.run(["put", big, "officer:/"])
            #expect(put.status == 10, "\(put.stderr)")
            #expect(
                put.stderr.contains("no space left") && put.stderr.contains("give that space back"), "\(put.stderr)")
            #expect(try await cli.run(["transfers", "list"]).stdout.contains("No unfinished transfers"))
            let room = try FileManager.default.attributesOfFileSystem(forPath: disk.path)
            let used = (room[.systemSize] as? Int64 ?? 0) - (room[.systemFreeSize] as? Int64 ?? 0)
            #expect(used < 1 << 20, "\(used) bytes still held on the server's disk")
            let small = try work.write("small.txt", String(repeating: "room enough\n", count: 40_000))
            let after = try await cli.run(["put", small, "officer:/"])
            #expect(after.status == 0, "the space came back: \(after.stderr)")
            #expect(try ProcessRunner.sha256(of: disk.path + "/small.txt") == (try ProcessRunner.sha256(of: small)))
        }
    }

    /// A source replaced by a rename, or edited in place, while `put` sends it: before, the server stored a file
    /// that matched neither version, exit 0.
    @Test(arguments: ["replaced", "edited"])
    func aSourceChangedDuringPutIsNeverStored(_ how: String) async throws {
        let server = try await ReferenceServer.start(inMemory: true)
        #expect(try await cli.login(server).status == 0)
        let source = try await randomFile(at: work.file("\(how)/f.bin"), mebibytes: 24)
        let other = try await randomFile(at: work.file("\(how)/other.bin"), mebibytes: 24)
        let put = try cli.launchCapturingErrors(["put", "--bwlimit", "8M", source, "officer:/f.bin"])
        let changed = await Eventually.wait(timeout: 60, { try journaledUpload() > 4 << 20 }) {
            if how == "replaced" {
                rename(other, source)
            } else if let handle = FileHandle(forUpdatingAtPath: source) {
                try? handle.seek(toOffset: 1_000)
                handle.write(Data("edited in place".utf8))
                try? handle.close()
            }
        }
        #expect(changed)
        put.process.waitUntilExit()
        #expect(put.process.terminationStatus == 8)
        #expect(put.stderr().contains("\(source) changed while it was being uploaded; run it again"), "\(put.stderr())")
        #expect(!FileManager.default.fileExists(atPath: server.root.file("f.bin")), "nothing under the final name")
        let rerun = try await cli.run(["put", source, "officer:/f.bin"])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(try ProcessRunner.sha256(of: server.root.file("f.bin")) == (try ProcessRunner.sha256(of: source)))
    }

    /// The server's file edited in place while its only range streams: before, the saved file had the old bytes
    /// first and the new ones after, exit 0. Now the version is asked again as the last bytes come (the checksum
    /// fails a mix) or after them (a seed-only server). An edit of bytes already sent only leaves bytes of the old
    /// version whole: the version asked again finds the edit all the same, and the new version is saved.
    @Test(arguments: [(false, true), (false, false), (true, true), (true, false)])
    func aServerFileEditedDuringGetIsNeverSavedTorn(seedOnly: Bool, bytesStillToCome: Bool) async throws {
        let server = try await ReferenceServer.start(arguments: seedOnly ? ["--api", "seed"] : [], inMemory: true)
        #expect(try await cli.login(server).status == 0)
        let remote = try await randomFile(at: server.root.file("movie.bin"), mebibytes: 12)
        let destination = work.file("movie.bin")
        let get = try cli.launchCapturingErrors(["get", "--bwlimit", "3M", "officer:/movie.bin", destination])
        // Bytes already sent and bytes still to come both change: a saved mix is neither version.
        let edited = await Eventually.wait(timeout: 60, { try journaledDownload() > 3 << 20 }) {
            guard let handle = FileHandle(forUpdatingAtPath: remote) else { return }
            for offset in bytesStillToCome ? [UInt64(0), UInt64(11 << 20)] : [0] {
                try? handle.seek(toOffset: offset)
                handle.write(Data(repeating: 0x5A, count: 1 << 20))
            }
            try? handle.close()
        }
        #expect(edited)
        get.process.waitUntilExit()
        #expect(get.process.terminationStatus == 0, "\(get.stderr())")
        #expect(
            try ProcessRunner.sha256(of: destination) == (try ProcessRunner.sha256(of: remote)),
            "the new version whole, never a mix")
    }

    /// Times before 1970 and after 2262 (a 64-bit nanosecond count ends there): before, `put` and `sync` crashed
    /// on such a file (exit 132), and every rerun crashed at the same file.
    @Test func timesBefore1970AndAfter2262AreCarried() async throws {
        let serverDisk = try TmpfsMount(size: "16m", prefix: "officer-time-root")
        let localDisk = try TmpfsMount(size: "16m", prefix: "officer-time-local")
        defer {
            serverDisk.unmount()
            localDisk.unmount()
        }
        let state = TemporaryDirectory(prefix: "officer-state", inMemory: true)
        let server = try await ReferenceServer.start(
            root: serverDisk.directory, state: state, port: try NginxServer.freePort())
        defer { server.service.stop() }
        #expect(try await cli.login(server).status == 0)
        let times: [String: Double] = [
            "1901.txt": -2_177_452_800, "1969.txt": -0.5, "2300.txt": 10_413_792_000, "9999.txt": 253_370_764_800,
        ]
        let local = localDisk.path + "/times"
        for (name, time) in times {
            let file = try localDisk.directory.write("times/" + name, name)
            let whole = time.rounded(.down)
            let stamp = timespec(tv_sec: Int(whole), tv_nsec: Int((time - whole) * 1e9))
            var both = [stamp, stamp]
            #expect(utimensat(AT_FDCWD, file, &both, 0) == 0, "\(name)")
        }
        let put = try await cli.run(["put", local + "/2300.txt", "officer:/"])
        #expect(put.status == 0, "\(put.stderr)")
        let pushed = try await cli.run(["--json", "sync", local, "officer:/times"])
        #expect(pushed.status == 0, "\(pushed.stderr)")
        #expect(try report(pushed).transferred == 4)
        for (name, time) in times {
            let stored =
                try FileManager.default.attributesOfItem(atPath: serverDisk.path + "/times/" + name)[.modificationDate]
                as! Date
            #expect(abs(stored.timeIntervalSince1970 - time) < 0.002, "\(name)")
        }
        let noop = try report(try await cli.run(["--json", "sync", local, "officer:/times"]))
        #expect(noop.transferred == 0 && noop.unchanged == 4)

        // Pulled into a folder on disk: ext4 keeps nothing after 2446, so the year 9999 is clamped there, and the
        // next pull must not see a change.
        let onDisk = work.path.hasPrefix("/dev/shm") ? TemporaryDirectory(prefix: "officer-pull").path : work.path
        let pulled = try await cli.run(["--json", "sync", "officer:/times", onDisk + "/pulled"])
        #expect(pulled.status == 0, "\(pulled.stderr)")
        let again = try await cli.run(["--json", "sync", "officer:/times", onDisk + "/pulled"])
        let settled = try report(again)
        #expect(again.status == 0 && settled.transferred == 0, "\(again.stdout)")
    }

    /// A link that cuts every connection after 2 MB: chunks that grew back after each cut were cut again (a 100 MB
    /// put sent 2.5–5.7× its size). Now at most 1.5× goes over the wire.
    @Test func aLinkThatCutsEveryConnectionCostsLittleMore() async throws {
        let server = try await ReferenceServer.start(inMemory: true)
        let count = work.file("count")
        let proxy = try await startCountingProxy(
            target: String(server.url.dropFirst("http://".count)), countFile: count,
            ["--direction", "up", "--reset-after", "2000000"])
        defer { proxy.stop() }
        #expect(try await cli.login(server, url: proxy.url).status == 0)
        let source = try await randomFile(at: work.file("cut.bin"), mebibytes: 40)
        let before = await settledCount(count) ?? 0
        let put = try await cli.run(["put", source, "officer:/cut.bin"])
        #expect(put.status == 0, "\(put.stderr)")
        let sent = (await settledCount(count) ?? 0) - before
        #expect(try ProcessRunner.sha256(of: server.root.file("cut.bin")) == (try ProcessRunner.sha256(of: source)))
        #expect(Double(sent) <= 1.5 * Double(40 << 20), "sent \(sent) bytes for 40 MiB")
    }

    /// One write request in twenty answered 500, and writes applied with their answers lost: before, a push failed
    /// 25 of 500 files every run. Now one run completes, and each file is the local one.
    @Test(arguments: [["--fail-writes-every", "20"], ["--fail-after-forward-every", "9"]])
    func writesSurviveAFlakyServer(_ faults: [String]) async throws {
        let server = try await ReferenceServer.start(inMemory: true)
        let proxy = try await startFaultProxy(target: String(server.url.dropFirst("http://".count)), faults)
        defer { proxy.stop() }
        #expect(try await cli.login(server, url: proxy.url).status == 0)
        let local = work.path + "/flaky"
        for index in 0..<120 {
            try work.write(
                "flaky/d\(index % 6)/f\(index).bin",
                Data((0..<(1_000 + index * 997)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }))
        }
        let pushed = try await cli.run(["--json", "sync", local, "officer:/flaky"])
        #expect(pushed.status == 0, "\(pushed.stderr)")
        #expect(try report(pushed).transferred == 120)
        for index in 0..<120 {
            let name = "flaky/d\(index % 6)/f\(index).bin"
            #expect(
                try ProcessRunner.sha256(of: server.root.file(name)) == (try ProcessRunner.sha256(of: work.file(name))),
                "\(name)")
        }
        // Every write command as a user types it, each through the same faults.
        for command in [
            ["mkdir", "officer:/made"], ["cp", "officer:/flaky/d0/f0.bin", "officer:/made/copy.bin"],
            ["mv", "officer:/made/copy.bin", "officer:/made/moved.bin"], ["rm", "officer:/flaky/d1/f1.bin"],
            ["mkdir", "officer:/made2"], ["mv", "officer:/flaky/d2/f2.bin", "officer:/made2/"],
            ["rm", "-r", "officer:/made2"],
        ] {
            let result = try await cli.run(command)
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
        #expect(FileManager.default.fileExists(atPath: server.root.file("made/moved.bin")))
        #expect(!FileManager.default.fileExists(atPath: server.root.file("made/copy.bin")))
        #expect(!FileManager.default.fileExists(atPath: server.root.file("flaky/d1/f1.bin")))
        #expect(!FileManager.default.fileExists(atPath: server.root.file("made2")))
    }

    /// Every answer to a write lost after the server applied it: a small file goes up inside its creation, and each
    /// attempt "fails". Before, `put` gave up with a 500 although the server held the file; now the listing and the
    /// server's SHA-256 settle it.
    @Test func aFileStoredByARequestWhoseAnswersWereAllLostIsDone() async throws {
        let server = try await ReferenceServer.start(inMemory: true)
        let proxy = try await startFaultProxy(
            target: String(server.url.dropFirst("http://".count)), ["--fail-after-forward-every", "1"])
        defer { proxy.stop() }
        // Log in past the proxy (the sign-in is a write too), then send every request through it.
        #expect(try await cli.login(server).status == 0)
        let token = try cli.savedToken()
        let small = try work.write("small.bin", Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 11) }))
        let put = try await cli.run(
            ["put", small, "officer:/small.bin"], environment: ["OFFICER_SERVER": proxy.url, "OFFICER_TOKEN": token])
        #expect(put.status == 0, "\(put.stderr)")
        #expect(try ProcessRunner.sha256(of: server.root.file("small.bin")) == (try ProcessRunner.sha256(of: small)))
    }
}
