import Foundation
import HTTP
import Officer
import TestSupport
import Testing
import Transfer

/// The cache as the CLI uses it: conditional re-reads, offline answers, pins, two writers, SIGKILL, corruption.
@Suite struct CacheCommandTests {
    let server: ReferenceServer
    let cli = CLIRunner()
    let work = TemporaryDirectory(prefix: "cache-work")

    init() async throws {
        server = try await ReferenceServer.start()
        #expect(try await cli.login(server).status == 0)
    }

    var cacheDirectory: String { cli.home.path + "/.cache/officer-files/content" }

    func bytesUnderObjects() -> Int64 { Self.bytes(under: cacheDirectory + "/objects") }

    /// The bytes of the cache's files under `objects`.
    static func bytes(under objects: String) -> Int64 {
        var total: Int64 = 0
        for folder in (try? FileManager.default.contentsOfDirectory(atPath: objects)) ?? [] {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: objects + "/" + folder)) ?? [] {
                var info = stat()
                if stat(objects + "/" + folder + "/" + name, &info) == 0 { total += Int64(info.st_size) }
            }
        }
        return total
    }

    @Test func aSecondCatComesFromTheCacheAndOfflineNeedsNoServer() async throws {
        let text = String(repeating: "cached line\n", count: 5000)
        let source = try server.root.write("docs/notes.txt", text)
        let first = try await cli.run(["cat", "officer:/docs/notes.txt"])
        #expect(first.status == 0 && first.stdout == text)
        let second = try await cli.run(["-v", "cat", "officer:/docs/notes.txt"])
        #expect(second.status == 0 && second.stdout == text)
        #expect(second.stderr.contains("< 304 GET"), "\(second.stderr)")
        #expect(second.stderr.contains("printing the cached copy"))

        // Changed on the server: the new bytes, never the stale copy.
        let changed = String(repeating: "new line\n", count: 100)
        try Data(changed.utf8).write(to: URL(fileURLWithPath: source))
        let third = try await cli.run(["cat", "officer:/docs/notes.txt"])
        #expect(third.status == 0 && third.stdout == changed)

        #expect(try await cli.run(["ls", "officer:/docs"]).status == 0)
        #expect(try await cli.run(["info", "officer:/docs/notes.txt"]).status == 0)
        server.service.stop()
        let offline = try await cli.run(["--offline", "cat", "officer:/docs/notes.txt"])
        #expect(offline.status == 0 && offline.stdout == changed, "\(offline.stderr)")
        let listing = try await cli.run(["ls", "--offline", "officer:/docs"])
        #expect(
            listing.status == 0 && listing.stdout == "notes.txt\n"
                && listing.stderr.contains("offline: officer:/docs as listed"))
        let info = try await cli.run(["info", "--offline", "officer:/docs/notes.txt"])
        #expect(info.status == 0 && info.stdout.contains("text/plain"), "\(info.stderr)")
        let got = try await cli.run(["get", "--offline", "officer:/docs/notes.txt", "copy.txt"], in: work.path)
        #expect(got.status == 0 && got.stderr.contains("from the cache"))
        #expect(try String(contentsOfFile: work.file("copy.txt"), encoding: .utf8) == changed)
        let missing = try await cli.run(["cat", "--offline", "officer:/docs/other.txt"])
        #expect(missing.status == 4 && missing.stderr.contains("not in the cache"))
        let down = try await cli.run(["ls", "officer:/docs"])
        #expect(
            down.status == 6 && down.stderr.split(separator: "\n").count == 1
                && down.stderr.hasSuffix("; officer-files ls --offline officer:/docs shows its cached listing\n"),
            "\(down.stderr)")
        // cat and get say it too, with a command that works as printed; nothing cached, or no cache, says nothing more.
        let catDown = try await cli.run(["cat", "officer:/docs/notes.txt"])
        #expect(
            catDown.status == 6 && catDown.stderr.split(separator: "\n").count == 1
                && catDown.stderr.hasSuffix(
                    "; officer-files cat --offline officer:/docs/notes.txt prints its cached copy\n"),
            "\(catDown.stderr)")
        let getDown = try await cli.run(["get", "officer:/docs/notes.txt", "again.txt"], in: work.path)
        #expect(
            getDown.status == 6 && getDown.stderr.split(separator: "\n").count == 1
                && getDown.stderr.hasSuffix(
                    "; officer-files get --offline officer:/docs/notes.txt again.txt saves its cached copy\n"),
            "\(getDown.stderr)")
        let asPrinted = try await cli.run(
            ["get", "--offline", "officer:/docs/notes.txt", "again.txt"], in: work.path)
        #expect(
            asPrinted.status == 0 && (try? String(contentsOfFile: work.file("again.txt"), encoding: .utf8)) == changed)
        // Replacing a file needs --force offline too: the printed command carries it.
        let forced = try await cli.run(["get", "-f", "officer:/docs/notes.txt", "again.txt"], in: work.path)
        #expect(
            forced.status == 6
                && forced.stderr.hasSuffix(
                    "; officer-files get --offline --force officer:/docs/notes.txt again.txt saves its cached copy\n"),
            "\(forced.stderr)")
        let forcedAsPrinted = try await cli.run(
            ["get", "--offline", "--force", "officer:/docs/notes.txt", "again.txt"], in: work.path)
        #expect(forcedAsPrinted.status == 0, "\(forcedAsPrinted.stderr)")
        let notKept = try await cli.run(["cat", "officer:/docs/never.txt"])
        #expect(notKept.status == 6 && !notKept.stderr.contains("--offline"), "\(notKept.stderr)")
        let noCache = try await cli.run(["--no-cache", "cat", "officer:/docs/notes.txt"])
        #expect(noCache.status == 6 && !noCache.stderr.contains("--offline"), "\(noCache.stderr)")
    }

    @Test func pinnedFilesSurviveEvictionAndClear() async throws {
        try server.root.write("keep.bin", Data(repeating: 1, count: 40_000))
        for index in 0..<6 { try server.root.write("other\(index).bin", Data(repeating: UInt8(index), count: 30_000)) }
        let limit = ["--cache-limit", "100K"]
        let pinned = try await cli.run(limit + ["cache", "pin", "officer:/keep.bin"])
        #expect(pinned.status == 0 && pinned.stdout.contains("Pinned officer:/keep.bin"), "\(pinned.stderr)")
        for index in 0..<6 { #expect(try await cli.run(limit + ["cat", "officer:/other\(index).bin"]).status == 0) }
        let stats = try await cli.run(limit + ["--json", "cache", "stats"])
        let decoded = try JSONDecoder().decode(CacheStatistics.self, from: Data(stats.stdout.utf8))
        #expect(decoded.bytes <= 100 * 1024 && decoded.pinnedBytes == 40_000 && decoded.pinnedEntries == 1)
        #expect(try await cli.run(limit + ["cache", "clear"]).status == 0)
        let listed = try await cli.run(limit + ["cache", "ls"])
        #expect(listed.stdout.contains("pinned") && listed.stdout.contains("officer:/keep.bin"))
        #expect(listed.stdout.split(separator: "\n").count == 1)
        #expect(try await cli.run(limit + ["cache", "unpin", "officer:/keep.bin"]).status == 0)
        let unpinMissing = try await cli.run(["cache", "unpin", "officer:/other0.bin"])
        #expect(unpinMissing.status == 4 && unpinMissing.stderr.contains("is not cached"))
        let huge = try await cli.run(["--cache-limit", "10K", "cache", "pin", "officer:/keep.bin"])
        #expect(huge.status == 9 && huge.stderr.contains("does not fit"))
        let badLimit = try await cli.run(["--cache-limit", "lots", "cache", "stats"])
        #expect(badLimit.status == 2 && badLimit.stderr.contains("--cache-limit"))
    }

    /// A smaller limit changes nothing on a run that only reads the cache (`cache stats`, `cache ls`, an offline
    /// `cat`); the next write under it makes room within it.
    @Test func aSmallerLimitChangesNothingOnARunThatOnlyReads() async throws {
        for index in 0..<3 { try server.root.write("r\(index).bin", Data(repeating: UInt8(index), count: 400_000)) }
        for index in 0..<3 { #expect(try await cli.run(["cat", "officer:/r\(index).bin"]).status == 0) }
        let filled = bytesUnderObjects()
        #expect(filled == 1_200_000, "\(filled)")
        let small = ["--cache-limit", "1M"]
        let stats = try await cli.run(small + ["--json", "cache", "stats"])
        #expect(stats.status == 0, "\(stats.stderr)")
        let shown = try JSONDecoder().decode(CacheStatistics.self, from: Data(stats.stdout.utf8))
        #expect(shown.entries == 3 && shown.bytes == filled && shown.limit == 1 << 20, "\(stats.stdout)")
        #expect(try await cli.run(small + ["cache", "ls"]).stdout.split(separator: "\n").count == 3)
        #expect(try await cli.run(small + ["--offline", "cat", "officer:/r0.bin"]).status == 0)
        #expect(bytesUnderObjects() == filled, "a run that only reads evicted")
        let after = try JSONDecoder().decode(
            CacheStatistics.self, from: Data(try await cli.run(["--json", "cache", "stats"]).stdout.utf8))
        #expect(after.entries == 3 && after.bytes == filled)

        try server.root.write("w.bin", Data(repeating: 9, count: 1000))
        #expect(try await cli.run(small + ["cat", "officer:/w.bin"]).status == 0)
        #expect(bytesUnderObjects() <= 1 << 20 && bytesUnderObjects() > 0)
    }

    @Test func twoWriterProcessesKeepTheLimit() async throws {
        for index in 0..<40 {
            try server.root.write("f\(index).bin", Data(repeating: UInt8(index), count: 5_000 + index * 700))
        }
        let limit: Int64 = 60 * 1024
        let writers = try (0..<2).map { writer in
            try cli.launch(
                ["--cache-limit", "60K", "cat"] + (0..<40).map { "officer:/f\(($0 + writer * 20) % 40).bin" })
        }
        // Sampled every 2 ms while the writers run (a sampler on a thread of its own, so a busy machine's task pool
        // cannot space the samples out).
        let counts = LockedValue((samples: 0, over: 0))
        let objects = cacheDirectory + "/objects"
        await Eventually.wait(timeout: 600, every: 0.002) {
            let over = Self.bytes(under: objects) > limit
            counts.withLock {
                $0.samples += 1
                if over { $0.over += 1 }
            }
            return !writers.contains(where: \.isRunning)
        }
        let (samples, over) = counts.current
        for writer in writers { #expect(writer.terminationStatus == 0) }
        #expect(over == 0, "over the limit in \(over) of \(samples) samples")
        let verify = try await cli.run(["--cache-limit", "60K", "--json", "cache", "verify"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(verify.stdout.utf8)) as? [String: Any])
        let repaired =
            ["orphanFilesRemoved", "entriesDropped", "staleTempFilesRemoved"].contains { report[$0] as? Int != 0 }
            || report["rebuiltIndex"] as? Bool != false || (report["damaged"] as? [String])?.isEmpty != true
        #expect(!repaired, "\(verify.stdout)")
        #expect(bytesUnderObjects() <= limit && bytesUnderObjects() > 0)
    }

    @Test func healsAfterSIGKILLMidInsertAndRebuildsACorruptIndex() async throws {
        try server.root.write("slow.bin", Data(repeating: 9, count: 3_000_000))
        let proxy = try await startFaultProxy(target: "127.0.0.1:\(server.service.port)", ["--throttle", "500000"])
        let viaProxy = ["OFFICER_SERVER": proxy.url, "OFFICER_TOKEN": try cli.savedToken()]
        let process = try cli.launch(["cat", "officer:/slow.bin"], environment: viaProxy)
        let temp = cacheDirectory + "/tmp"
        // Generous: under a sanitizer, with the other suites running, the CLI can take long to get going.
        #expect(
            await Eventually.signal(SIGKILL, to: [process], timeout: 120) {
                try FileManager.default.contentsOfDirectory(atPath: temp).contains { name in
                    ((try? FileManager.default.attributesOfItem(atPath: temp + "/" + name)[.size] as? Int) ?? 0)
                        > 100_000
                }
            })
        process.waitUntilExit()
        let healed = try await cli.run(["cache", "stats"])
        #expect(
            healed.status == 0 && healed.stderr.contains("repaired after an interrupted run: 1 temp files"),
            "\(healed.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temp).isEmpty)
        #expect(try await cli.run(["cat", "officer:/slow.bin"]).stdout.utf8.count == 3_000_000)

        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: cacheDirectory + "/index.sqlite"))
        for suffix in ["-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: cacheDirectory + "/index.sqlite" + suffix)
        }
        let rebuilt = try await cli.run(["cat", "officer:/slow.bin"])
        #expect(rebuilt.status == 0 && rebuilt.stdout.utf8.count == 3_000_000)
        #expect(
            rebuilt.stderr.contains("was unreadable; started a new one (1 cached files dropped)"), "\(rebuilt.stderr)")
        let verify = try await cli.run(["cache", "verify"])
        #expect(verify.status == 0 && verify.stdout.contains("consistent: 1 entry,"), "\(verify.stdout)")
    }
}
