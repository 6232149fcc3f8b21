import Foundation
import HTTP
import Journal
import Officer
import TestSupport
import Testing
import Transfer

/// Killed uploads lose seconds, not chunks: `put` is SIGKILLed at random points and rerun, against the reference
/// server and against three tus servers from PyPI that are not ours; a counting proxy in front of the server
/// measures every byte that went up, so the bytes sent twice are measured, not guessed.
@Suite struct UploadResendTests {
    let cli = CLIRunner()
    let work = TemporaryDirectory(prefix: "resend-work")

    /// The goal for one kill: what a rerun sends again is at most ~5 s at the rate the upload had, or 1 MiB.
    static func allowance(rate: Int64) -> Int64 { max(5 * rate, 1 << 20) }

    /// A file of random bytes (no pattern a server or a link could compress or dedupe).
    func randomFile(_ name: String, _ size: Int) async throws -> String {
        let path = work.path + "/" + name
        let made = try await ProcessRunner.runDetached("/bin/sh", ["-c", "head -c \(size) /dev/urandom > '\(path)'"])
        #expect(made.status == 0, "\(made.stderr)")
        return path
    }

    /// The offset the server answers for the upload the journal keeps (a HEAD; the reference server answers it
    /// only once the killed run's PATCH has ended). A run killed before it created (and journaled) its upload left
    /// nothing on the server: 0.
    func serverOffset(token: String? = nil) async throws -> Int64 {
        guard let url = try (cli.watchedJournal()?.uploads() ?? []).first?.parts.first?.url else { return 0 }
        var head = HTTPRequest(
            method: "HEAD", url: url, credential: try token.map { try BearerCredential(token: $0, issuedBy: url) })
        head.headers.add("Tus-Resumable", "1.0.0")
        let response = try await HTTPClient.curl.send(head)
        return try #require(response.headers["Upload-Offset"].flatMap { Int64($0) })
    }

    /// Runs `arguments` and SIGKILLs the run at each of `delays` (seconds after its start), rerunning after every
    /// kill, then lets the last run finish. Returns the bytes re-sent after each kill: what went up through the
    /// proxy during the run, less what the server's offset advanced by (`serverOffset`, read once the killed
    /// run's connections have ended).
    func killAndRerun(
        _ arguments: [String], environment: [String: String] = [:], delays: [Double], countFile: String,
        serverOffset: () async throws -> Int64
    ) async throws -> (resent: [Int64], final: ProcessResult) {
        var resent: [Int64] = []
        var count: Int64 = 0
        var offset: Int64 = 0
        for delay in delays {
            let process = try cli.launch(arguments, environment: environment)
            let killAt = Date().addingTimeInterval(delay)
            await Eventually.signal(SIGKILL, to: [process], timeout: delay + 30) { Date() >= killAt }
            process.waitUntilExit()
            guard process.terminationReason == .uncaughtSignal else { break }  // it finished before the kill
            // A loaded machine can take long to drain what the killed run had in flight: a minute and a half.
            let counted = try #require(await settledCount(countFile, timeout: 90))
            let kept = try await serverOffset()
            resent.append((counted - count) - (kept - offset))
            (count, offset) = (counted, kept)
        }
        let final = try await cli.run(arguments, environment: environment)
        return (resent, final)
    }

    @Test func killedTenTimesAnUploadResendsSecondsNotChunks() async throws {
        try await HeavyWork.shared.run { try await killedTenTimes() }
    }

    func killedTenTimes() async throws {
        let server = try await ReferenceServer.start()
        #expect(try await cli.login(server).status == 0)
        let rate: Int64 = 8 << 20
        var generator = SystemRandomNumberGenerator()
        // Ten kills whose windows together stay well inside the upload's time at 8 MB/s (5 s and 15 s): a kill
        // that lands after the file is complete leaves nothing to resume, and the rerun rightly finds it there.
        for (name, size, span) in [
            ("forty.bin", 40_000_000, 0.15...0.45), ("hundred-twenty.bin", 120_000_000, 0.4...1.2),
        ] {
            let path = try await randomFile(name, size)
            let countFile = work.path + "/\(name).count"
            let proxy = try await startCountingProxy(target: "127.0.0.1:\(server.service.port)", countFile: countFile)
            defer { proxy.stop() }
            let environment = ["OFFICER_SERVER": proxy.url, "OFFICER_TOKEN": try cli.savedToken()]
            let delays = (0..<10).map { _ in Double.random(in: span, using: &generator) }
            let token = try cli.savedToken()
            let (resent, final) = try await killAndRerun(
                ["put", "--bwlimit", "8M", path, "officer:/"], environment: environment, delays: delays,
                countFile: countFile
            ) { try await serverOffset(token: token) }
            #expect(final.status == 0, "\(final.stderr)")
            #expect(resent.count >= 5, "\(name): only \(resent.count) of the kills landed before the upload finished")
            print("\(name): kills at \(delays.map { String(format: "%.2f", $0) }), re-sent \(resent)")
            for bytes in resent {
                #expect(bytes <= Self.allowance(rate: rate), "\(name): re-sent \(resent) at \(rate) B/s")
            }
            #expect(
                try await ProcessRunner.sha256Detached(of: server.root.file(name))
                    == (try await ProcessRunner.sha256Detached(of: path)))
            #expect(try TransferJournal(path: cli.journalPath).uploads().isEmpty)
        }
    }

    @Test(arguments: InteropTusKind.allCases)
    func interoperatesWithATusServerThatIsNotOurs(_ kind: InteropTusKind) async throws {
        try await HeavyWork.shared.run { try await interoperates(kind) }
    }

    func interoperates(_ kind: InteropTusKind) async throws {
        let folder = TemporaryDirectory(prefix: "interop-\(kind)")
        let other = try await startInteropTusServer(folder: folder.path, kind: kind)
        defer { other.stop() }
        let endpoint = other.url + kind.uploadPath
        let big = try await randomFile("thirty.bin", 30_000_000)
        let whole = try await cli.run(["put", big, endpoint])
        #expect(whole.status == 0, "\(kind): \(whole.stderr)")
        #expect(
            try await ProcessRunner.sha256Detached(of: folder.file("thirty.bin"))
                == (try await ProcessRunner.sha256Detached(of: big)))

        // Killed after ~3 s under --bwlimit, then rerun through the same counting proxy.
        let rate: Int64 = 4 << 20
        let path = try await randomFile("twenty-four.bin", 24_000_000)
        let countFile = work.path + "/\(kind).count"
        let proxy = try await startCountingProxy(target: "127.0.0.1:\(other.port)", countFile: countFile)
        defer { proxy.stop() }
        let viaProxy = proxy.url + kind.uploadPath
        let (resent, final) = try await killAndRerun(
            ["put", "--bwlimit", "4M", path, viaProxy], delays: [3], countFile: countFile
        ) { try await serverOffset() }
        #expect(final.status == 0, "\(kind): \(final.stderr)")
        #expect(final.stderr.contains("twenty-four.bin: resuming at"), "\(kind): \(final.stderr)")
        #expect(resent.count == 1)
        print("\(kind): re-sent \(resent) after a kill at 3 s")
        for bytes in resent {
            #expect(bytes <= Self.allowance(rate: rate), "\(kind): re-sent \(resent) at \(rate) B/s")
        }
        #expect(
            try await ProcessRunner.sha256Detached(of: folder.file("twenty-four.bin"))
                == (try await ProcessRunner.sha256Detached(of: path)))
    }
}
