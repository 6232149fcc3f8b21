import FileModel
import Foundation
import TestSupport
import Testing

@testable import HTTP
@testable import Officer
@testable import Transfer

/// The content cache: the hard limit, LRU order, TTL, pins, several writers, crash and corruption repair, disk full.
@Suite struct ContentCacheTests {
    let folder = TemporaryDirectory(prefix: "cache")

    func key(_ path: String, kind: String = CacheKey.Kind.body) -> CacheKey {
        CacheKey(server: "http://127.0.0.1:1#me@example.com", root: "home", path: path, kind: kind)
    }

    func bytes(_ count: Int, _ fill: UInt8 = 7) -> Data { Data(repeating: fill, count: count) }

    /// Bytes actually under objects/, counted independently of the index.
    func bytesOnDisk(_ cache: ContentCache) -> Int64 {
        var total: Int64 = 0
        let objects = cache.directory + "/objects"
        for folder in (try? FileManager.default.contentsOfDirectory(atPath: objects)) ?? [] {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: objects + "/" + folder)) ?? [] {
                var info = stat()
                if stat(objects + "/" + folder + "/" + name, &info) == 0 { total += Int64(info.st_size) }
            }
        }
        return total
    }

    @Test func storesAndFindsByVersion() throws {
        let cache = try ContentCache(directory: folder.path + "/c")
        try cache.store(Data("hello".utf8), for: key("/a.txt"), version: "\"v1\"", metadata: ["type": "text/plain"])
        let hit = try #require(try cache.entry(for: key("/a.txt"), version: "\"v1\""))
        #expect(hit.contents() == Data("hello".utf8))
        #expect(hit.metadata["type"] == "text/plain")
        #expect(try cache.entry(for: key("/a.txt"), version: "\"v2\"") == nil)
        #expect(try cache.entry(for: key("/a.txt", kind: CacheKey.Kind.preview)) == nil)
        // A new version replaces the old one: one entry, the old file gone.
        try cache.store(Data("hello, world".utf8), for: key("/a.txt"), version: "\"v2\"")
        #expect(!FileManager.default.fileExists(atPath: hit.path))
        #expect(try cache.data(for: key("/a.txt")) == Data("hello, world".utf8))
        let stats = try cache.statistics()
        #expect(stats.entries == 1 && stats.bytes == 12)
        #expect(bytesOnDisk(cache) == 12)
    }

    @Test func limitHoldsUnderRandomSizes() throws {
        let limit: Int64 = 256 << 10
        let cache = try ContentCache(directory: folder.path + "/c", limit: limit)
        var generator = SystemRandomNumberGenerator()
        var refused = 0
        for index in 0..<400 {
            let size = Int.random(in: 0...(64 << 10), using: &generator)
            try cache.store(bytes(size), for: key("/f\(index % 150)"), version: "\(index)")
            let stats = try cache.statistics()
            #expect(stats.bytes <= limit, "index total over the limit after insert \(index)")
            #expect(bytesOnDisk(cache) == stats.bytes, "disk and index disagree after insert \(index)")
        }
        do {
            try cache.store(bytes(Int(limit) + 1), for: key("/huge"), version: "1")
        } catch CacheError.tooLarge { refused += 1 }
        #expect(refused == 1)
        #expect(try cache.statistics().bytes <= limit)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.directory + "/tmp").isEmpty)
    }

    @Test func evictsTheLeastRecentlyUsed() throws {
        let cache = try ContentCache(directory: folder.path + "/c", limit: 300)
        for name in ["a", "b", "c"] { try cache.store(bytes(100), for: key("/" + name), version: "1") }
        #expect(try cache.entry(for: key("/a")) != nil)  // a is now more recent than b and c
        try cache.store(bytes(100), for: key("/d"), version: "1")
        #expect(try cache.entries().map(\.key.path) == ["/c", "/a", "/d"])
        try cache.store(bytes(150), for: key("/e"), version: "1")  // needs two evictions: c, then a
        #expect(try cache.entries().map(\.key.path) == ["/d", "/e"])
    }

    @Test func expiresAfterTheTimeToLive() throws {
        let time = LockedValue(1_000_000.0)
        let cache = try ContentCache(directory: folder.path + "/c", timeToLive: 0.05, now: { time.current })
        try cache.store(bytes(10), for: key("/short"), version: "1")
        try cache.store(bytes(10), for: key("/kept"), version: "1", pinned: true)
        #expect(try cache.entry(for: key("/short")) != nil)
        time.withLock { $0 += 0.1 }
        #expect(try cache.entry(for: key("/short")) == nil)
        #expect(try cache.entry(for: key("/kept")) != nil, "pinned entries do not expire")
        #expect(try cache.statistics().entries == 1)
    }

    @Test func pinnedEntriesAreNeverEvicted() throws {
        let cache = try ContentCache(directory: folder.path + "/c", limit: 1000)
        try cache.store(bytes(600), for: key("/offline"), version: "1", pinned: true)
        for index in 0..<20 { try cache.store(bytes(300), for: key("/\(index)"), version: "1") }
        #expect(try cache.entry(for: key("/offline")) != nil)
        let stats = try cache.statistics()
        #expect(stats.pinnedEntries == 1 && stats.pinnedBytes == 600 && stats.bytes <= 1000)
        #expect(throws: CacheError.tooLarge(key: key("/big"), size: 401, available: 400)) {
            try cache.store(bytes(401), for: key("/big"), version: "1")
        }
        try cache.setPinned(false, for: key("/offline"))
        try cache.store(bytes(401), for: key("/big"), version: "1")
        #expect(try cache.entry(for: key("/offline")) == nil)
        #expect(throws: CacheError.notCached(key: key("/nothing"))) { try cache.setPinned(true, for: key("/nothing")) }
        #expect(try cache.clear().entries == 1)
    }

    @Test func severalConnectionsShareOneLimit() async throws {
        let limit: Int64 = 100 << 10
        let directory = folder.path + "/c"
        let caches = try (0..<4).map { _ in try ContentCache(directory: directory, limit: limit) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (writer, cache) in caches.enumerated() {
                group.addTask {
                    for index in 0..<150 {
                        try cache.store(
                            bytes(Int.random(in: 1...(20 << 10))), for: key("/w\(writer)/\(index % 40)"),
                            version: "\(index)")
                        #expect(try cache.statistics().bytes <= limit)
                    }
                }
            }
            try await group.waitForAll()
        }
        let report = try caches[0].verify()
        #expect(!report.repairedAnything, "no orphans or dangling rows after concurrent writers: \(report)")
        #expect(bytesOnDisk(caches[0]) == (try caches[0].statistics().bytes))
    }

    /// One cache shared by threads: writers, readers and a verify at once. The index was one connection that
    /// reads reached without the writers' lock (SQLite opened without its own mutex), and verify replaced it while
    /// readers could hold it.
    @Test func oneCacheReadsWritesAndVerifiesFromSeveralThreads() throws {
        let limit: Int64 = 64 << 10
        let cache = try ContentCache(directory: folder.path + "/c", limit: limit)
        let failures = LockedValue<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { role in
            do {
                for index in 0..<120 {
                    switch role {
                    case 0, 1:
                        try cache.store(
                            bytes(1 + (index * 97) % (8 << 10)), for: key("/t\(role)/\(index % 30)"),
                            version: "\(index)")
                    case 2:
                        let statistics = try cache.statistics()
                        if statistics.bytes > limit {
                            failures.withLock { $0.append("over the limit: \(statistics.bytes)") }
                        }
                        _ = try cache.entries()
                    default:
                        if index % 20 == 0 {
                            _ = try cache.verify()
                        } else {
                            _ = try cache.entry(for: key("/t0/\(index % 30)"))
                        }
                    }
                }
            } catch {
                failures.withLock { $0.append("role \(role): \(error)") }
            }
        }
        #expect(failures.current.isEmpty)
        #expect(!(try cache.verify().repairedAnything))
        #expect(bytesOnDisk(cache) == (try cache.statistics().bytes))
    }

    @Test func healsWhatACrashLeft() throws {
        let directory = folder.path + "/c"
        var first: ContentCache? = try ContentCache(directory: directory)
        let kept = try first!.store(bytes(50), for: key("/kept"), version: "1")
        let lost = try first!.store(bytes(70), for: key("/lost"), version: "1")
        first = nil
        // A writer killed mid-insert: its temp file, a file linked but never indexed, an indexed file removed.
        let exited = Process()
        exited.executableURL = URL(fileURLWithPath: "/bin/true")
        try ProcessRunner.spawning { try exited.run() }
        exited.waitUntilExit()
        let dead = exited.processIdentifier
        try Data(repeating: 1, count: 99).write(to: URL(fileURLWithPath: "\(directory)/tmp/\(dead).0123456789abcdef"))
        try FileManager.default.createDirectory(atPath: directory + "/objects/ff", withIntermediateDirectories: true)
        try Data(repeating: 2, count: 33).write(to: URL(fileURLWithPath: directory + "/objects/ff/ff00"))
        try FileManager.default.removeItem(atPath: lost.path)
        let cache = try ContentCache(directory: directory)
        #expect(cache.openingReport.staleTempFilesRemoved == 1)
        #expect(cache.openingReport.orphanFilesRemoved == 1)
        #expect(cache.openingReport.entriesDropped == 1)
        #expect(try cache.entries().map(\.key.path) == ["/kept"])
        #expect(try cache.entry(for: key("/kept"))?.contents() == Data(contentsOf: URL(fileURLWithPath: kept.path)))
        #expect(!FileManager.default.fileExists(atPath: directory + "/objects/ff/ff00"))
        #expect(!(try cache.verify().repairedAnything))
    }

    @Test func aCorruptIndexIsRebuilt() throws {
        let directory = folder.path + "/c"
        var first: ContentCache? = try ContentCache(directory: directory)
        let stored = try first!.store(bytes(50), for: key("/x"), version: "1")
        first = nil
        for suffix in ["-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: directory + "/index.sqlite" + suffix)
        }
        try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: directory + "/index.sqlite"))
        let cache = try ContentCache(directory: directory)
        #expect(cache.openingReport.rebuiltIndex)
        #expect(cache.openingReport.orphanFilesRemoved == 1)
        #expect(!FileManager.default.fileExists(atPath: stored.path))
        try cache.store(bytes(5), for: key("/y"), version: "1")
        #expect(try cache.statistics().entries == 1)
    }

    @Test func aFullDiskLeavesTheCacheIntact() throws {
        let mountPoint = folder.path + "/small"
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        let mounted = try ProcessRunner.run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", mountPoint])
        try #require(mounted.status == 0, "this test needs to mount a 1 MiB tmpfs (root): \(mounted.stderr)")
        defer { _ = try? ProcessRunner.run("/bin/umount", ["-l", mountPoint]) }
        let cache = try ContentCache(directory: mountPoint + "/c", limit: 10 << 20)
        let first = try cache.store(bytes(600 << 10, 1), for: key("/first"), version: "1")
        var failure: CacheError?
        do {
            try cache.store(bytes(600 << 10, 2), for: key("/second"), version: "1")
        } catch { failure = error }
        guard case .io(let path, let message) = failure else {
            Issue.record("expected a disk-full error, got \(String(describing: failure))")
            return
        }
        #expect(path.hasPrefix(mountPoint + "/c/tmp/") && message.contains("No space left"))
        #expect(try cache.entry(for: key("/first"))?.contents() == bytes(600 << 10, 1))
        #expect(FileManager.default.fileExists(atPath: first.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: mountPoint + "/c/tmp").isEmpty)
        #expect(!(try cache.verify().repairedAnything))
    }
}
