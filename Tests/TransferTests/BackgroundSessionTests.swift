import FileModel
import Foundation
import Journal
import TestSupport
import Testing
import Transfer

@testable import HTTP
@testable import Officer

/// The app's background session as the front door names it: one session per identifier in the process (the system
/// allows no other), requests of a front door that names it going through it, and the system's completion handler
/// called once its events are delivered.
@Suite struct BackgroundSessionTests {
    let work = TemporaryDirectory(prefix: "background-session")

    @Test func aNamedSessionIsOnePerProcessAndCarriesTheFrontDoorsRequests() async throws {
        let server = try await ReferenceServer.start()
        try server.root.write("photo.bin", Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }))
        var configuration = OfficerFiles.Configuration(server: server.url, tokens: MemoryTokenStore())
        configuration.journalPath = work.file("journal.sqlite")
        configuration.backgroundSessionIdentifier = "app.officer.transfers"
        #expect(configuration.backgroundSessionIdentifier == "app.officer.transfers")
        var again = OfficerFiles.Configuration(server: server.url, tokens: MemoryTokenStore())
        again.backgroundSessionIdentifier = "app.officer.transfers"
        #expect((configuration.http.engine as? URLSessionEngine) === (again.http.engine as? URLSessionEngine))
        again.backgroundSessionIdentifier = nil
        #expect(again.backgroundSessionIdentifier == nil)

        let files = try OfficerFiles(configuration: configuration)
        try await files.signIn(email: server.email, password: server.password)
        let local = URL(fileURLWithPath: work.file("photo.bin"))
        _ = try await files.download(try files.location("officer:/photo.bin"), to: local).value
        #expect(
            try ProcessRunner.sha256(of: local.path) == (try ProcessRunner.sha256(of: server.root.file("photo.bin"))))
    }

    @Test func theSystemsCompletionHandlerIsCalledOnceTheEventsAreDelivered() async {
        let calls = LockedValue(0)
        await withCheckedContinuation { (delivered: CheckedContinuation<Void, Never>) in
            OfficerFiles.handleEventsForBackgroundURLSession("app.officer.relaunch") {
                calls.withLock { $0 += 1 }
                delivered.resume()
            }
            // What the system's urlSessionDidFinishEvents(forBackgroundURLSession:) does on Apple platforms.
            URLSessionEngine.forSession("app.officer.relaunch").backgroundEventsDelivered()
        }
        // A second delivery finds no handler: it was the system's to call once.
        URLSessionEngine.forSession("app.officer.relaunch").backgroundEventsDelivered()
        #expect(calls.withLock { $0 } == 1)
    }
}

/// Adoption on the URLSession engine itself: the app's launch ends while its background session's tasks go on
/// (``URLSessionEngine/simulateTermination()``, as the system does to a terminated app: FoundationNetworking has no
/// session that outlives a process, so the launch ends inside this one), and a new front door on the same journal
/// claims what those tasks brought instead of asking it again.
@Suite(.timeLimit(.minutes(30))) struct BackgroundSessionAdoptionTests {
    let work = TemporaryDirectory(prefix: "background-adoption")

    func downloadedSoFar(_ journal: String) throws -> Int64 {
        guard FileManager.default.fileExists(atPath: journal) else { return 0 }
        return try TransferJournal(watching: journal).downloads().reduce(0) {
            $0 + $1.segments.reduce(0) { $0 + $1.done }
        }
    }

    /// What a relaunched app does: the unfinished transfers the journal lists, resumed.
    func resumeTheOneUnfinishedTransfer(_ files: OfficerFiles) async throws {
        var listed: [UnfinishedTransfer] = []
        for await list in files.unfinishedTransfers() where !list.isEmpty {
            listed = list
            break
        }
        try #require(listed.count == 1)
        try await files.resume(listed[0]).value
    }

    /// The app under test behind a fault proxy that counts the bytes one way: each front door is a launch, on one
    /// journal and one background session.
    struct App {
        let proxy: BackgroundService
        let counted: String
        let journal: String
        let identifier = "test.adoption.\(UUID().uuidString)"
        let tokens = MemoryTokenStore()

        var engine: URLSessionEngine { URLSessionEngine.forSession(identifier) }

        func launch() throws -> OfficerFiles {
            var configuration = OfficerFiles.Configuration(server: proxy.url, tokens: tokens)
            configuration.journalPath = journal
            configuration.backgroundSessionIdentifier = identifier
            return try OfficerFiles(configuration: configuration)
        }

        /// The bytes the proxy forwarded in the counted direction (written by it every 100 ms).
        var bytesCounted: Int64 { Int64((try? String(contentsOfFile: counted, encoding: .utf8)) ?? "0") ?? 0 }
    }

    func app(behindProxyTo server: ReferenceServer, counting direction: String, _ faults: [String]) async throws -> App
    {
        let counted = work.file("\(direction)-bytes")
        let proxy = try await startFaultProxy(
            target: "127.0.0.1:\(server.service.port)",
            faults + ["--count-file", counted, "--count-direction", direction])
        return App(proxy: proxy, counted: counted, journal: work.file("journal.sqlite"))
    }

    /// A download in pieces of 16 MiB, one after another: the launch ends while the second is under way. Launched
    /// again at once, the download waits for that task and takes its answer; launched once the task ended, it takes
    /// the answer the session kept. The proxy holds the bytes 2 MiB into the second piece until the launch has ended
    /// (it was a throttle: on a loaded machine the second piece could be over before the launch ended).
    @Test(arguments: [false, true])
    func aDownloadWhoseLaunchEndedIsClaimedFromTheSessionWithNoByteFetchedTwice(relaunchedAfterTheTaskEnded: Bool)
        async throws
    {
        let server = try await ReferenceServer.start()
        let bytes = Data((0..<36_000_000).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 11) })
        try server.root.write("big.bin", bytes)
        let app = try await app(behindProxyTo: server, counting: "down", ["--hold-after", String(18 << 20)])
        defer { app.proxy.stop() }
        let first = try app.launch()
        try await first.signIn(email: server.email, password: server.password)
        let destination = URL(fileURLWithPath: work.file("big.bin"))
        var options = DownloadOptions()
        options.segments = 1
        let location = try first.location("officer:/big.bin")
        let download = first.download(location, to: destination, options: options)

        // The launch ends once the journal holds a piece and the next one is coming: its task goes on in the session.
        let (engine, journal) = (app.engine, app.journal)
        #expect(
            await Eventually.wait(
                timeout: 300,
                {
                    try downloadedSoFar(journal) > 0 && app.bytesCounted > (16 << 20) + (1 << 20)
                }, then: { engine.simulateTermination() })
        )
        app.proxy.send(signal: SIGUSR1)  // the launch is over: the second piece's task goes on, in the session
        await #expect(throws: (any Error).self) { try await download.value }
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(app.bytesCounted < Int64(bytes.count), "the whole file came before the launch ended")
        if relaunchedAfterTheTaskEnded {
            await engine.settleTasks(labelled: "download ")
        }

        // Launched again, the app resumes what the journal holds: the download claims what the session's tasks brought.
        engine.simulateRelaunch()
        try await resumeTheOneUnfinishedTransfer(try app.launch())
        #expect(FileManager.default.contents(atPath: destination.path) == bytes)
        // Every byte once, and the small answers (sign-in, stat, the HEADs) beside them.
        #expect(await Eventually.wait { app.bytesCounted >= Int64(bytes.count) })
        let fetched = app.bytesCounted
        #expect(fetched < Int64(bytes.count) + 256 << 10, "fetched \(fetched) bytes for \(bytes.count)")
    }

    func uploadedSoFar(_ journal: String) throws -> Int64 {
        guard FileManager.default.fileExists(atPath: journal) else { return 0 }
        return try TransferJournal(watching: journal).uploads().reduce(0) { $0 + $1.parts.reduce(0) { $0 + $1.offset } }
    }

    /// An upload in chunks of 512 KiB: the launch ends while a chunk goes; launched again, the upload waits for that
    /// chunk's task before it asks the server's offset, so every chunk goes once.
    @Test func anUploadWhoseLaunchEndedWaitsForTheSessionsChunkWithNoByteSentTwice() async throws {
        let server = try await ReferenceServer.start()
        let bytes = Data((0..<6_000_000).map { UInt8(truncatingIfNeeded: $0 &* 17 &+ $0 >> 9) })
        let local = URL(fileURLWithPath: try work.write("up.bin", bytes))
        let app = try await app(behindProxyTo: server, counting: "up", ["--direction", "up", "--throttle", "1000000"])
        defer { app.proxy.stop() }
        let first = try app.launch()
        try await first.signIn(email: server.email, password: server.password)
        var options = UploadOptions()
        options.chunkSize = 512 << 10
        let upload = first.upload(local, to: try first.location("officer:/"), options: options)

        // The launch ends once the server holds a chunk and the next one is going: its task goes on.
        let (engine, journal) = (app.engine, app.journal)
        #expect(
            await Eventually.wait(
                timeout: 300,
                {
                    let done = try uploadedSoFar(journal)
                    return done > 0 && app.bytesCounted > done + (200 << 10)
                }, then: { engine.simulateTermination() }))
        await #expect(throws: (any Error).self) { try await upload.value }
        #expect(app.bytesCounted < Int64(bytes.count), "the whole file went before the launch ended")

        engine.simulateRelaunch()
        try await resumeTheOneUnfinishedTransfer(try app.launch())
        #expect(FileManager.default.contents(atPath: server.root.file("up.bin")) == bytes)
        // Every byte once, and the requests' heads beside them (the proxy writes its count every 100 ms: it is read
        // once it holds the whole file at least).
        #expect(await Eventually.wait { app.bytesCounted >= Int64(bytes.count) })
        let sent = app.bytesCounted
        #expect(sent < Int64(bytes.count) + 64 << 10, "sent \(sent) bytes for \(bytes.count)")
    }
}
