import FileModel
import Foundation
import Journal
import TestSupport
import Testing
import Transfer

/// Background transfers as an app relaunched by the system lives them, here with a stand-in for the system's
/// transfer daemon (`Tests/Server/transfer_daemon.py`): the process that started a download is killed while the
/// daemon keeps running its tasks; a new process on the same journal adopts them (the pieces under way or done are
/// taken from the daemon, not asked again), and the file lands verified with no byte fetched twice.
@Suite struct BackgroundDaemonTests {
    let cli = CLIRunner()
    let work = TemporaryDirectory(prefix: "background-daemon")

    func downloadedSoFar() throws -> Int64 {
        try (cli.watchedJournal()?.downloads() ?? []).reduce(0) { $0 + $1.segments.reduce(0) { $0 + $1.done } }
    }

    struct LoggedRequest: Decodable {
        var label: String?
        var method: String
        var range: String?
    }

    func uploadedSoFar() throws -> Int64 {
        try (cli.watchedJournal()?.uploads() ?? []).reduce(0) { $0 + $1.parts.reduce(0) { $0 + $1.offset } }
    }

    func daemonLog(_ daemon: BackgroundService) throws -> [LoggedRequest] {
        let log = try ProcessRunner.run("/usr/bin/curl", ["-s", daemon.url + "/log"])
        return try JSONDecoder().decode([LoggedRequest].self, from: Data(log.stdout.utf8))
    }

    /// The stand-in daemon, a fault proxy (`faults`) between it and `server`, and the environment that sends the
    /// CLI's requests through the daemon to the proxy.
    func daemonBehindProxy(_ server: ReferenceServer, _ faults: [String]) async throws -> (
        proxy: BackgroundService, daemon: BackgroundService, environment: [String: String]
    ) {
        let proxy = try await startFaultProxy(target: "127.0.0.1:\(server.service.port)", faults)
        let daemon = try await startTransferDaemon()
        let environment = [
            "OFFICER_SERVER": proxy.url, "OFFICER_TOKEN": try cli.savedToken(),
            "OFFICER_HTTP_ENGINE": "daemon:" + daemon.url,
        ]
        return (proxy, daemon, environment)
    }

    /// A killed `put`: the chunk the daemon was sending is finished by it, and the rerun waits for it before asking
    /// the server's offset, so every chunk goes once.
    @Test func aKilledUploadContinuesAfterTheDaemonsChunkWithNoByteSentTwice() async throws {
        let server = try await ReferenceServer.start()
        #expect(try await cli.login(server).status == 0)
        let big = try work.write("up.bin", TestBytes.pattern(6_000_000, seed: 17))
        let (proxy, daemon, environment) = try await daemonBehindProxy(
            server, ["--direction", "up", "--throttle", "1000000"])
        defer {
            proxy.stop()
            daemon.stop()
        }
        let put = ["put", "--chunk-size", "512K", big, "officer:/"]
        let first = try cli.launch(put, environment: environment)
        #expect(await Eventually.signal(SIGKILL, to: [first], timeout: 120) { try uploadedSoFar() > 0 })
        first.waitUntilExit()
        let second = try await cli.run(put, environment: environment)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try ProcessRunner.sha256(of: server.root.file("up.bin")) == (try ProcessRunner.sha256(of: big)))
        let chunks = try daemonLog(daemon).filter { $0.method == "PATCH" }.compactMap(\.label)
        #expect(!chunks.isEmpty && Set(chunks).count == chunks.count, "a chunk sent twice: \(chunks)")
    }

    @Test func aKilledDownloadIsAdoptedFromTheDaemonWithNoByteFetchedTwice() async throws {
        let server = try await ReferenceServer.start()
        #expect(try await cli.login(server).status == 0)
        let bytes = TestBytes.pattern(30_000_000, seed: 131)
        try server.root.write("big.bin", bytes)
        let (proxy, daemon, environment) = try await daemonBehindProxy(server, ["--throttle", "3000000"])
        defer {
            proxy.stop()
            daemon.stop()
        }
        let destination = work.file("big.bin")
        let get = ["get", "-x", "2", "officer:/big.bin", destination]
        let first = try cli.launch(get, environment: environment)
        // Killed once the journal holds a piece: the daemon goes on with the pieces under way.
        #expect(await Eventually.signal(SIGKILL, to: [first], timeout: 120) { try downloadedSoFar() > 0 })
        first.waitUntilExit()
        #expect(!FileManager.default.fileExists(atPath: destination))

        let second = try await cli.run(get, environment: environment)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("resumed after"), "\(second.stderr)")
        #expect(
            try ProcessRunner.sha256(of: destination) == (try ProcessRunner.sha256(of: server.root.file("big.bin"))))
        let ranges = try daemonLog(daemon).compactMap(\.range)
        #expect(!ranges.isEmpty && Set(ranges).count == ranges.count, "a range asked twice: \(ranges.sorted())")
    }
}
