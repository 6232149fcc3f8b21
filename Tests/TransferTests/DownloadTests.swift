import FileModel
import Foundation
import Journal
import TestSupport
import Testing

@testable import HTTP
@testable import Officer
@testable import Transfer

/// Downloads against nginx, the reference server and the fault proxy: every test checks the final
/// SHA-256 and that nothing partial sits under the final name.
@Suite struct DownloadTests {
    let local = TemporaryDirectory(prefix: "downloads")

    func randomData(_ count: Int, seed: UInt64 = 42) -> Data { TestBytes.pattern(count, seed: seed) }

    func downloader(stall: Double = 30) throws -> SegmentedDownloader {
        var configuration = HTTPClientConfiguration()
        configuration.retry.baseDelay = 0.05
        configuration.retry.maxDelay = 0.2
        configuration.stallTimeout = stall
        return SegmentedDownloader(
            http: TestEngine.curl.client(configuration),
            journal: try TransferJournal(path: local.file("journal.sqlite")))
    }

    func rawURL(_ base: String, _ path: String) -> String {
        base + "/api/file-browser/raw?" + URLQuery.encode([("path", path), ("root", "home")])
    }

    func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: local.path).filter { $0.hasSuffix(".officer-download") }
    }

    @Test(arguments: [1, 4])
    func fromNginx(segments: Int) async throws {
        let nginx = try await NginxServer.start()
        let source = try nginx.root.write("movie.bin", randomData(5_000_000))
        var options = DownloadOptions()
        options.segments = segments
        let events = EventLog()
        let result = try await downloader().download(
            from: nginx.url + "/movie.bin", credential: nil, to: local.file("movie.bin"), options: options,
            onEvent: events.add)
        #expect(result.bytes == 5_000_000 && result.resumedBytes == 0 && result.fetchedBytes == 5_000_000)
        #expect(try ProcessRunner.sha256(of: local.file("movie.bin")) == (try ProcessRunner.sha256(of: source)))
        #expect(try leftovers().isEmpty)
        #expect(events.segmentCount == segments)
        // Last-Modified becomes the file's mtime, as wget does.
        let remote = try FileManager.default.attributesOfItem(atPath: source)[.modificationDate] as! Date
        let copy = try FileManager.default.attributesOfItem(atPath: local.file("movie.bin"))[.modificationDate] as! Date
        #expect(abs(remote.timeIntervalSince(copy)) < 1)
        #expect(try TransferJournal(path: local.file("journal.sqlite")).download(for: local.file("movie.bin")) == nil)
    }

    @Test func survivesResetsStallsAnd5xx() async throws {
        let server = try await ReferenceServer.start()
        let token = try await OfficerClient(server: server.url, http: .curl).signIn(
            email: server.email, password: server.password
        )
        .token
        let source = try server.root.write("data.bin", randomData(3_000_000, seed: 7))
        let target = "127.0.0.1:\(server.service.port)"
        let faults: [[String]] = [
            ["--reset-after", "400000"], ["--stall-after", "900000", "--stall-seconds", "30"],
            ["--fail-request", "2", "--fail-request", "3", "--status", "503"],
        ]
        for (index, fault) in faults.enumerated() {
            let proxy = try await startFaultProxy(target: target, fault)
            var options = DownloadOptions()
            options.segments = 2
            options.maxAttemptsWithoutProgress = 8
            let name = local.file("data-\(index).bin")
            let result = try await downloader(stall: 1).download(
                from: rawURL(proxy.url, "/data.bin"), credential: .forTests(token, rawURL(proxy.url, "/data.bin")),
                to: name, options: options)
            #expect(result.bytes == 3_000_000, "\(fault)")
            // Bytes kept from failed attempts were fetched in this run too: the rate shown counts them.
            #expect(result.fetchedBytes >= 3_000_000, "\(fault): \(result.fetchedBytes)")
            #expect(try ProcessRunner.sha256(of: name) == (try ProcessRunner.sha256(of: source)), "\(fault)")
        }
        #expect(try leftovers().isEmpty)
    }

    @Test func resumesFromTheJournalAfterAnInterruption() async throws {
        // Timed (interrupted at a point it waits for): not while a heavy test loads the machine's disk.
        try await HeavyWork.shared.run { try await resumesAlone() }
    }

    func resumesAlone() async throws {
        let nginx = try await NginxServer.start()
        let source = try nginx.root.write("big.bin", randomData(8_000_000, seed: 3))
        // Four connections at 250 kB/s, each stalling after 1 MB: the first run cannot finish however late the
        // interruption comes on a loaded machine (before, a late poll could find all 8 MB journaled).
        let proxy = try await startFaultProxy(
            target: "127.0.0.1:\(nginx.port)",
            ["--throttle", "250000", "--stall-after", "1000000", "--stall-seconds", "600"])
        var options = DownloadOptions()
        options.segments = 4
        let destination = local.file("big.bin")
        let first = Task {
            try await downloader().download(
                from: proxy.url + "/big.bin", credential: nil, to: destination, options: options)
        }
        // Interrupt once 600 kB are journaled, from a polling thread of its own: a busy machine whose cooperative
        // threads are all taken cannot make the cancellation late.
        let observer = try TransferJournal(path: local.file("journal.sqlite"))
        #expect(
            await Eventually.wait(
                timeout: 600,
                {
                    (try observer.download(for: destination)?.segments.reduce(0) { $0 + $1.done } ?? 0) >= 600_000
                }, then: { first.cancel() }))
        _ = await first.result
        #expect(!FileManager.default.fileExists(atPath: destination))
        #expect(try leftovers() == [".big.bin.officer-download"])
        let saved = try #require(try TransferJournal(path: local.file("journal.sqlite")).download(for: destination))
        let journaled = saved.segments.reduce(0) { $0 + $1.done }
        #expect(journaled > 500_000 && journaled <= 4_000_000, "\(journaled)")

        await Eventually.unlocked(local.file(".big.bin.officer-download"))
        // Through the same proxy (the journal belongs to that URL): a connection that stalls is replaced after 1 s.
        let events = EventLog()
        let second = try await downloader(stall: 1).download(
            from: proxy.url + "/big.bin", credential: nil, to: destination, options: options, onEvent: events.add)
        #expect(second.resumedBytes == journaled)
        // What an app is shown: the resumed share from the first update on (it began at 0 with several ranges), and
        // only ever growing.
        let tracker = TransferTracker()
        let shown = events.all.map { tracker.apply($0) }
        #expect(shown.first?.doneBytes == journaled && shown.first?.resumedBytes == journaled, "\(shown.prefix(3))")
        #expect(zip(shown, shown.dropFirst()).allSatisfy { $0.doneBytes <= $1.doneBytes })
        #expect(tracker.end(.success(())).doneBytes == 8_000_000)
        #expect(second.fetchedBytes == 8_000_000 - journaled)
        #expect(try ProcessRunner.sha256(of: destination) == (try ProcessRunner.sha256(of: source)))
        #expect(try leftovers().isEmpty)
    }

    @Test func aFileChangedOnTheServerIsFetchedWhole() async throws {
        let nginx = try await NginxServer.start()
        try nginx.root.write("doc.bin", randomData(6_000_000, seed: 1))
        // Every connection stalls after 1 MB: the first download cannot finish however late this test looks.
        let proxy = try await startFaultProxy(
            target: "127.0.0.1:\(nginx.port)",
            ["--throttle", "2000000", "--stall-after", "1000000", "--stall-seconds", "600"])
        let destination = local.file("doc.bin")
        let first = Task {
            try await downloader().download(from: proxy.url + "/doc.bin", credential: nil, to: destination)
        }
        // Cancelled once 500 kB have landed (one range grows its temp file). The download runs on the shared pool,
        // which the suite's other tests may hold for minutes on a loaded machine: it is waited for, not timed.
        let partial = local.file(".doc.bin.officer-download")
        #expect(
            await Eventually.wait(
                timeout: 600,
                {
                    ((try? FileManager.default.attributesOfItem(atPath: partial)[.size] as? Int) ?? 0) >= 500_000
                }, then: { first.cancel() }))
        _ = await first.result
        await Eventually.unlocked(partial)
        // Same size, new content and mtime: only the validator tells.
        let changed = try nginx.root.write("doc.bin", randomData(6_000_000, seed: 2))
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: changed)
        let result = try await downloader().download(from: nginx.url + "/doc.bin", credential: nil, to: destination)
        #expect(result.resumedBytes == 0)
        #expect(try ProcessRunner.sha256(of: destination) == (try ProcessRunner.sha256(of: changed)))
    }

    @Test func aServerIgnoringRangeGetsOneStream() async throws {
        let folder = TemporaryDirectory()
        let source = try folder.write("plain.bin", randomData(2_500_000, seed: 9))
        let probe = try await startRedirectProbe(serving: folder.path)
        var options = DownloadOptions()
        options.segments = 4
        let events = EventLog()
        let result = try await downloader().download(
            from: probe.url + "/plain/plain.bin", credential: nil, to: local.file("plain.bin"), options: options,
            onEvent: events.add)
        #expect(result.bytes == 2_500_000 && events.segmentCount == 1)
        #expect(try ProcessRunner.sha256(of: local.file("plain.bin")) == (try ProcessRunner.sha256(of: source)))
    }

    @Test func checksumsAreEnforced() async throws {
        let nginx = try await NginxServer.start()
        let source = try nginx.root.write("c.bin", randomData(1_000_000))
        let good = try ProcessRunner.sha256(of: source)
        var options = DownloadOptions()
        options.checksum = Checksum(parsing: "sha256:" + good.uppercased())
        let result = try await downloader().download(
            from: nginx.url + "/c.bin", credential: nil, to: local.file("ok.bin"), options: options)
        #expect(result.sha256 == good)
        options.checksum = Checksum(parsing: "sha256:" + String(repeating: "0", count: 64))
        await #expect(
            throws: DownloadError.checksumMismatch(
                path: local.file("bad.bin"), expected: "sha256:" + String(repeating: "0", count: 64), actual: good)
        ) {
            try await downloader().download(
                from: nginx.url + "/c.bin", credential: nil, to: local.file("bad.bin"), options: options)
        }
        #expect(!FileManager.default.fileExists(atPath: local.file("bad.bin")))
        #expect(try leftovers().isEmpty)
        #expect(Checksum(parsing: "md5:abc") == nil && Checksum(parsing: "sha256:xyz") == nil)
        #expect(
            Checksum(parsing: "MD5:" + String(repeating: "A", count: 32))?.description == "md5:"
                + String(repeating: "a", count: 32))
    }

    @Test func neverOverwritesWithoutForce() async throws {
        let nginx = try await NginxServer.start()
        try nginx.root.write("f.txt", "new contents")
        let existing = try local.write("f.txt", "precious")
        await #expect(throws: DownloadError.destinationExists(path: existing)) {
            try await downloader().download(from: nginx.url + "/f.txt", credential: nil, to: existing)
        }
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "precious")
        var options = DownloadOptions()
        options.force = true
        _ = try await downloader().download(from: nginx.url + "/f.txt", credential: nil, to: existing, options: options)
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "new contents")
        await #expect(throws: DownloadError.destinationIsDirectory(path: local.path)) {
            try await downloader().download(from: nginx.url + "/f.txt", credential: nil, to: local.path)
        }
    }

    @Test func serverErrorsNameTheURL() async throws {
        let nginx = try await NginxServer.start()
        await #expect {
            try await downloader().download(from: nginx.url + "/missing.bin", credential: nil, to: local.file("m.bin"))
        } throws: { error in
            guard case DownloadError.server(let url, 404, _) = error else { return false }
            return url.hasSuffix("/missing.bin")
        }
        #expect(!FileManager.default.fileExists(atPath: local.file("m.bin")))
    }

    @Test func twoDownloadsToOneFileDoNotMix() async throws {
        let destination = local.file("same.bin")
        let partial = try PartialFile(destination: destination)
        let nginx = try await NginxServer.start()
        try nginx.root.write("same.bin", "x")
        await #expect(throws: DownloadError.busy(path: destination)) {
            try await downloader().download(from: nginx.url + "/same.bin", credential: nil, to: destination)
        }
        _ = partial
    }

    @Test func streamsResumeExactlyWhereTheyStopped() async throws {
        let server = try await ReferenceServer.start()
        let token = try await OfficerClient(server: server.url, http: .curl).signIn(
            email: server.email, password: server.password
        )
        .token
        let source = try server.root.write("s.bin", randomData(2_000_000, seed: 5))
        let proxy = try await startFaultProxy(target: "127.0.0.1:\(server.service.port)", ["--reset-after", "300000"])
        let output = local.file("stream.out")
        let fd = open(output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        defer { close(fd) }
        let written = try await downloader().stream(
            from: rawURL(proxy.url, "/s.bin"), credential: .forTests(token, rawURL(proxy.url, "/s.bin")), to: fd)
        #expect(written == 2_000_000)
        #expect(try ProcessRunner.sha256(of: output) == (try ProcessRunner.sha256(of: source)))
    }
}

final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [TransferEvent] = []
    func add(_ event: TransferEvent) { lock.withLock { events.append(event) } }
    var all: [TransferEvent] { lock.withLock { events } }
    var segmentCount: Int {
        lock.withLock {
            events.compactMap { if case .started(_, let parts, _, _, _) = $0 { parts.count } else { nil } }.last ?? 0
        }
    }
}
