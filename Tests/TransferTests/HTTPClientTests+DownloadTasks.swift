import FileModel
import Foundation
import Journal
import TestSupport
import Testing

@testable import HTTP
@testable import Officer
@testable import Transfer

/// The URLSession engine's downloads as download tasks: labelled with their transfer, asked in pieces the journal
/// records as each lands whole, and continued by another run from what the journal holds.
extension HTTPClientTests {
    func downloader(_ engine: any HTTPEngine, journal: String) throws -> SegmentedDownloader {
        var configuration = HTTPClientConfiguration()
        configuration.engine = engine
        configuration.retry.baseDelay = 0.05
        configuration.retry.maxDelay = 0.2
        return SegmentedDownloader(
            http: HTTPClient(configuration: configuration),
            journal: try TransferJournal(path: journal))
    }

    /// A session name of its own: a named session's ranges go as download tasks on every platform (an unnamed one's
    /// are data tasks where FoundationNetworking runs), as an app's background session's do.
    func named() -> String { "officer-files.tests.download-tasks.\(UUID().uuidString)" }

    /// Pieces the journal holds of the download under way.
    func journaledBytes(_ journal: String) -> Int64 {
        guard FileManager.default.fileExists(atPath: journal) else { return 0 }
        return ((try? TransferJournal(watching: journal).downloads()) ?? []).flatMap(\.segments).reduce(0) {
            $0 + $1.done
        }
    }

    @Test func aDownloadIsTasksLabelledWithTheirRangeAndContinuedFromTheJournal() async throws {
        let local = TemporaryDirectory(prefix: "download-tasks")
        let journal = local.file("journal.sqlite")
        let bytes = TestBytes.pattern(40_000_000, seed: 131)
        try server.root.write("big.bin", bytes)
        // 2 MB/s: a 16 MiB piece takes about eight seconds, long enough to be seen under way on a loaded machine
        // (at 4 MB/s a loaded CI run once missed it).
        let proxy = try await startFaultProxy(
            target: "127.0.0.1:\(server.service.port)", ["--throttle", "2000000"])
        defer { proxy.stop() }
        let engine = URLSessionEngine(temporaryFolder: URL(fileURLWithPath: local.path), sessionIdentifier: named())
        // What the engine is asked, recorded as it is asked: the label is checked there, whatever the machine's load
        // (a loaded CI start once kept a run from its first piece for over 120 s).
        let watched = JournalCheckingEngine(engine, journal: journal)
        let url = rawURL(proxy.url, "/big.bin")
        let destination = local.file("big.bin")
        var options = DownloadOptions()
        options.segments = 1
        // How the first run ended, if it did before being stopped: a wait below ends with it and says so.
        let ended = LockedValue<String?>(nil)
        let first = Task {
            do {
                let result = try await downloader(watched, journal: journal).download(
                    from: url, credential: .forTests(token, url), to: destination, options: options)
                ended.withLock { $0 = "finished: \(result)" }
                return result
            } catch {
                ended.withLock { $0 = "failed: \(error)" }
                throw error
            }
        }
        // Labelled with its transfer and its first piece, at most the engine's piece limit; on a loaded run the
        // piece may have been asked again from where an attempt broke off (`#0 N-16777215`).
        let piece = try #require(engine.fileBodyPieceLimit)
        let isFirstPiece: @Sendable (String) -> Bool = { $0.contains(" #0 ") && $0.hasSuffix("-\(piece - 1)") }
        let underWay = LockedValue<Set<String>>([])  // every label the session reported under way
        // The session is asked too, as a relaunched app asks it (the answer comes on the session's queue).
        let askSession: @Sendable () -> Void = {
            let answered = DispatchSemaphore(value: 0)
            engine.labelsOfTasksUnderWay { found in
                underWay.withLock { $0.formUnion(found) }
                answered.signal()
            }
            answered.wait()
        }
        let asked = await Eventually.wait(timeout: 600) {
            askSession()
            return watched.sent.current.contains(where: isFirstPiece) || ended.current != nil
        }
        #expect(
            asked && watched.sent.current.contains(where: isFirstPiece) && ended.current == nil,
            """
            no request labelled with the download's first piece; asked: \(watched.sent.current), \
            under way in the session: \(underWay.current.sorted()), journal: \(journaledBytes(journal)), \
            first run: \(ended.current ?? "under way")
            """
        )
        // Stopped once a piece is whole in the journal: what the next run continues from.
        #expect(
            await Eventually.wait(timeout: 600) {
                askSession()
                return journaledBytes(journal) >= piece || ended.current != nil
            }
                && ended.current == nil, "first run: \(ended.current ?? "under way")")
        // The session carried the label on its task (what adoption after a relaunch matches), when a poll landed
        // while the piece ran: told, not required (a loaded machine may not let one land).
        if !underWay.current.contains(where: isFirstPiece) {
            print("the session was not seen with the first piece under way: \(underWay.current.sorted())")
        }
        first.cancel()
        _ = await first.result
        let kept = journaledBytes(journal)
        #expect(kept >= piece && kept < 40_000_000, "\(kept)")
        let second = try await downloader(engine, journal: journal).download(
            from: url, credential: .forTests(token, url), to: destination, options: options)
        #expect(second.resumedBytes == kept, "\(second)")
        #expect(
            try ProcessRunner.sha256(of: destination) == (try ProcessRunner.sha256(of: server.root.file("big.bin"))))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: local.path).filter {
            $0.hasPrefix("officer-files-download-")
        }
        #expect(leftovers.isEmpty, "the session's files are removed: \(leftovers)")
    }

    /// A piece's task is released (forgotten by an engine whose tasks outlive their process) only once the journal
    /// holds the piece: a process killed at any moment between the two leaves the piece adoptable or recorded.
    @Test func aPieceIsReleasedOnlyOnceTheJournalHoldsIt() async throws {
        let local = TemporaryDirectory(prefix: "download-release")
        let journal = local.file("journal.sqlite")
        let bytes = TestBytes.pattern(40_000_000, seed: 7)
        try server.root.write("big.bin", bytes)
        let engine = JournalCheckingEngine(
            URLSessionEngine(temporaryFolder: URL(fileURLWithPath: local.path), sessionIdentifier: named()),
            journal: journal)
        let url = rawURL(server.url, "/big.bin")
        let destination = local.file("big.bin")
        var options = DownloadOptions()
        options.segments = 2
        _ = try await downloader(engine, journal: journal).download(
            from: url, credential: .forTests(token, url), to: destination, options: options)
        #expect(
            try ProcessRunner.sha256(of: destination) == (try ProcessRunner.sha256(of: server.root.file("big.bin"))))
        let releases = engine.releases.withLock { $0 }
        // Two ranges of 20 MB in 16 MiB pieces: four pieces, each released once, each recorded first.
        #expect(releases.count == 4, "\(releases.map(\.label))")
        #expect(releases.allSatisfy { $0.recorded }, "released before the journal held it: \(releases)")
    }
}
