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

    /// What 0.4 left (format 3: a download and a tus upload its CLI was interrupted in, an object-store upload):
    /// every transfer becomes one versioned state, its fields as they were, the old tables gone.
    @Test func aJournalThatTheLastReleaseLeftKeepsEveryTransfer() throws {
        let path = try copyFixture("journal-v3.sqlite")
        #expect(try userVersion(path) == 3)
        let journal = try TransferJournal(path: path)
        #expect(try userVersion(path) == TransferJournal.formatVersion)
        let download = try #require(try journal.download(for: "/tmp/v3/local/big.bin"))
        #expect(download.url.hasSuffix("/api/file-browser/raw?path=/big.bin&root=home"))
        #expect(download.tempPath == "/tmp/v3/local/.big.bin.officer-download")
        #expect(download.etag == "\"800000-18ee491b52629280-fae044\"" && download.total == 8_388_608)
        #expect(download.lastModified == "Sat, 05 Dec 2026 06:54:43 GMT" && download.source == nil)
        #expect(
            download.segments == [
                TransferJournal.Segment(index: 0, start: 0, end: 8_388_607, done: 1_494_016, synced: 1_494_016)
            ])
        let upload = try #require(try journal.uploads().first)
        #expect(upload.localPath == "/tmp/v3/local/up.bin" && upload.label == "officer:/up.bin")
        #expect(upload.fingerprint.path == "/tmp/v3/local/up.bin" && upload.fingerprint.size == 8_388_608)
        #expect(upload.parts.map(\.offset) == [1_310_720])
        #expect(upload.parts.first?.url?.contains("/api/file-browser/tus/") == true)
        #expect(try journal.upload(key: upload.key) == upload)
        let object = try #require(try journal.objectUploads().first)
        #expect(object.uploadID == "2~abc" && object.remote == "backup" && object.partSize == 5_242_880)
        let tables = try journal.withDatabase { database throws(SQLiteError) in
            try database.query("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { $0[0].string }
        }
        #expect(tables.contains("transfers"))
        #expect(!tables.contains { ["downloads", "download_segments", "uploads", "object_uploads"].contains($0) })
    }

    /// A transfer's state written by a newer build is neither read nor dropped: it waits for that build.
    @Test func aStateOfANewerBuildIsLeftForIt() throws {
        let journal = try TransferJournal(path: folder.file("newer.sqlite"))
        try journal.withDatabase { database throws(SQLiteError) in
            try database.execute(
                "INSERT INTO transfers VALUES ('download', '/tmp/later.bin', 99, '{\"shape\":\"unknown\"}', 1)")
        }
        #expect(try journal.downloads() == [])
        #expect(try journal.download(for: "/tmp/later.bin") == nil)
        try journal.updateProgress(destination: "/tmp/later.bin", [(index: 0, done: 1, synced: nil)])
        let kept = try journal.withDatabase { database throws(SQLiteError) in
            try database.query("SELECT version, state FROM transfers").first
        }
        #expect(kept == [.integer(99), .text("{\"shape\":\"unknown\"}")])
    }

    /// The tables the tests write back for "a journal 0.4 left" (``JournalFormatThree``) are the ones 0.4 wrote:
    /// the fixture migrated and written back gives its rows again.
    @Test func theFormatThreeTheTestsWriteIsTheOneTheLastReleaseWrote() throws {
        let original = try copyFixture("journal-v3.sqlite")
        let roundTrip = folder.file("round-trip.sqlite")
        try FileManager.default.copyItem(atPath: original, toPath: roundTrip)
        _ = try TransferJournal(path: roundTrip)
        try JournalFormatThree.downgrade(roundTrip)
        #expect(try userVersion(roundTrip) == 3)
        for (table, order) in [
            ("downloads", "destination"), ("download_segments", "destination, idx"), ("uploads", "key"),
            ("object_uploads", "key"),
        ] {
            #expect(try rows(roundTrip, table, order) == (try rows(original, table, order)), "\(table)")
        }
    }

    /// A table's rows, each value as text and JSON read (so an escaped `\/` and `/` compare equal).
    func rows(_ path: String, _ table: String, _ order: String) throws -> [[String]] {
        try SQLiteDatabase(path: path).query("SELECT * FROM \(table) ORDER BY \(order)").map { row in
            row.map { value in
                guard let text = value.string else { return "\(value)" }
                guard let json = try? JSONSerialization.jsonObject(with: Data(text.utf8)),
                    let normal = try? JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])
                else { return text }
                return String(decoding: normal, as: UTF8.self)
            }
        }
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
