import Foundation
import Journal
import TestSupport
import Testing

@testable import CurlHTTP
@testable import HTTP
@testable import Officer
@testable import Transfer

@Suite struct TransferLibrarySmokeTests {
    @Test(arguments: TestEngine.allCases)
    func eachEngineReportsItsVersionAndFailsCleanlyWithoutAServer(_ engine: TestEngine) async throws {
        #expect(engine.engine.versionDescription.hasPrefix(engine == .curl ? "libcurl/" : "URLSession"))
        // Port 9 (discard) on loopback is closed here: a real connect, a real error, the same code from both.
        var configuration = HTTPClientConfiguration()
        configuration.retry = .none
        let client = engine.client(configuration)
        await #expect {
            try await client.send(HTTPRequest(url: "http://127.0.0.1:9/nothing"))
        } throws: { error in
            guard case HTTPError.transport(_, let code, _) = error else { return false }
            return code == 7
        }
    }

    @Test func sqliteOpensInWALModeAndRoundTrips() throws {
        #expect(SQLiteDatabase.libraryVersion.hasPrefix("3."))
        let folder = TemporaryDirectory()
        let database = try SQLiteDatabase(path: folder.file("journal.sqlite"))
        #expect(try database.journalMode() == "wal")
        try database.execute("CREATE TABLE t (name TEXT, size INTEGER, mtime REAL)")
        try database.execute("INSERT INTO t VALUES (?, ?, ?)", [.text("a'b\"c ü"), .integer(1 << 40), .real(1.5)])
        let rows = try database.query("SELECT name, size, mtime FROM t")
        #expect(rows == [[.text("a'b\"c ü"), .integer(1 << 40), .real(1.5)]])
        #expect(FileManager.default.fileExists(atPath: folder.file("journal.sqlite-wal")))
        #expect {
            try database.execute("INSERT INTO missing VALUES (1)")
        } throws: { error in
            "\(error)".contains("no such table: missing")
        }
    }

    @Test func sqliteTransactionsRollBack() throws {
        let folder = TemporaryDirectory()
        let database = try SQLiteDatabase(path: folder.file("t.sqlite"))
        try database.execute("CREATE TABLE t (v INTEGER)")
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try database.transaction {
                try database.execute("INSERT INTO t VALUES (1)")
                throw Boom()
            }
        }
        #expect(try database.query("SELECT count(*) FROM t") == [[.integer(0)]])
    }

    @Test func queryEncodingKeepsReservedCharacters() {
        #expect(URLQuery.encode([("path", "/a b/c+d&e=f#g"), ("q", "ü")]) == "path=/a%20b/c%2Bd%26e%3Df%23g&q=%C3%BC")
    }

    @Test func retryPolicyHonoursRetryAfterAndCaps() {
        let policy = RetryPolicy()
        #expect(policy.delay(afterAttempt: 1, retryAfter: "2") == 2)
        #expect(policy.delay(afterAttempt: 1, retryAfter: "999") == 30)
        let now = Date(timeIntervalSince1970: 1_000_000)
        let httpDate = "Mon, 12 Jan 1970 13:46:50 GMT"  // 10 s after `now`
        #expect(abs(policy.delay(afterAttempt: 1, retryAfter: httpDate, now: now) - 10) < 0.001)
        for attempt in 1...6 {
            let delay = policy.delay(afterAttempt: attempt, retryAfter: nil)
            let ceiling = min(30, 0.5 * pow(2, Double(attempt - 1)))
            #expect(delay >= ceiling / 2 && delay <= ceiling)
        }
    }
}

@Suite struct RatePacerTests {
    @Test func pacesToTheRate() {
        var pacer = RatePacer(bytesPerSecond: 100_000, now: 0)
        // The bucket starts empty: the first 16 KiB wait for their share of time.
        let wait = pacer.admit(16_384, now: 0)
        #expect(wait != nil && abs(wait! - 0.16384) < 0.0001)
        #expect(pacer.admit(16_384, now: 0.17) == nil)
        // Over ten seconds, about a megabyte gets through, not more.
        var now = 0.17
        var admitted = 0
        while now < 10.17 {
            if let delay = pacer.admit(16_384, now: now) { now += delay } else { admitted += 16_384 }
        }
        #expect(admitted >= 950_000 && admitted <= 1_050_000)
    }
}
