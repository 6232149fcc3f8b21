import Foundation
import Journal
import TestSupport
import Testing
import Transfer

/// The journal and the cache index across builds: a file of the previous format (Tests/Fixtures/state, made by
/// make-v1.sh with the layout of every build before versions were kept) is migrated at open with its records
/// kept; a file newer than this build is refused and left byte for byte as it was.
@Suite struct StateMigrationTests {
    let folder = TemporaryDirectory(prefix: "state-migration")
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/state").path

    func copyFixture(_ name: String) throws -> String {
        let target = folder.file(name)
        try FileManager.default.copyItem(atPath: Self.fixtures + "/" + name, toPath: target)
        return target
    }

    func userVersion(_ path: String) throws -> Int {
        Int(try SQLiteDatabase(path: path).query("PRAGMA user_version").first?.first?.int ?? -1)
    }

    @Test func aVersionOneJournalKeepsItsQueuedWritesAndDownloads() throws {
        let path = try copyFixture("journal-v1.sqlite")
        #expect(try userVersion(path) == 0)
        let journal = try TransferJournal(path: path)
        #expect(journal.openingReport == nil)
        let queued = try journal.queuedWrites()
        #expect(queued.count == 1 && queued.first?.write.path == "/queued")
        let download = try journal.download(for: "/tmp/big.bin")
        #expect(download?.total == 1000 && download?.segments.map(\.done) == [200, 0])
        #expect(try userVersion(path) == TransferJournal.formatVersion)
        // Version 3 keeps the remote a download came from; an older record names none.
        #expect(download?.source == nil)
        var named = try #require(download)
        named.source = "s3t"
        try journal.save(named)
        #expect(try journal.download(for: "/tmp/big.bin")?.source == "s3t")
        // The tables the format adds lazily before are there from the start now.
        #expect(try journal.objectUploads().isEmpty)
    }

    @Test func aVersionOneCacheIndexGainsTheDigestOfEveryBody() throws {
        let directory = try copyFixture("cache-v1")
        let index = directory + "/index.sqlite"
        try SQLiteDatabase(path: index).execute(
            "UPDATE entries SET file = replace(file, '@CACHE@', ?)", [.text(directory)])
        let cache = try ContentCache(directory: directory)
        let key = CacheKey(
            server: "http://127.0.0.1:1#user", root: "home", path: "/notes.txt", kind: CacheKey.Kind.body)
        let entry = try #require(try cache.entry(for: key))
        let digest = try SHA256Hasher.hash(file: entry.path)
        #expect(entry.pinned && entry.sha256 == digest)
        // What an older build stored was never checked against the server as far as this one knows.
        #expect(entry.checkedBy == .size)
        #expect(try cache.data(for: key) == Data("cached body of version one\n".utf8))
        #expect(try userVersion(index) == 3)
        #expect(try cache.verify().damagedEntries.isEmpty)
    }

    @Test func aNewerJournalOrCacheIndexIsRefusedAndLeftAsItIs() throws {
        let path = try copyFixture("journal-v1.sqlite")
        try SQLiteDatabase(path: path).execute("PRAGMA user_version = 99")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect {
            _ = try TransferJournal(path: path)
        } throws: { error in
            let error = error as? SQLiteError
            return error?.newerFormat?.found == 99 && "\(error!)".contains("written by a newer officer-files")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(!names.contains { $0.contains("damaged") })

        let directory = try copyFixture("cache-v1")
        try SQLiteDatabase(path: directory + "/index.sqlite").execute("PRAGMA user_version = 7")
        #expect(throws: CacheError.self) { _ = try ContentCache(directory: directory) }
        #expect(try userVersion(directory + "/index.sqlite") == 7)
    }
}
