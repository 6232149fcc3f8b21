import Foundation
import Officer
import TestSupport
import Testing

/// The queue and the unfinished transfers as an app sees them through `import Officer`: changes kept while the
/// server cannot be reached, watched as a stream while another front door sends them, a held one dropped; a
/// paused download watched, resumed to the right bytes and gone from the list.
@Suite(.timeLimit(.minutes(30))) struct OfficerFilesObservationTests {
    let server: ReferenceServer
    let work = TemporaryDirectory(prefix: "front-door-observation")

    init() async throws {
        server = try await ReferenceServer.start()
    }

    func files(
        offline: Bool, tokens: MemoryTokenStore, remotes: [OfficerRemote] = [], engine: TestEngine = .urlSession,
        clock: (any Clock<Duration>)? = nil
    ) throws -> OfficerFiles {
        var configuration = OfficerFiles.Configuration(server: server.url, tokens: tokens)
        if let clock { configuration.http.clock = clock }
        configuration.http.engine = engine.engine
        configuration.journalPath = work.path + "/journal.sqlite"
        configuration.cacheDirectory = work.path + "/cache"
        configuration.officerRemotes = remotes
        configuration.http.offline = offline
        return try OfficerFiles(configuration: configuration)
    }

    /// The stream's first value that satisfies `wanted` (nil if it ends first; the suite's time limit is the
    /// safety net, not a wait the test depends on).
    func value<T: Sendable>(of stream: AsyncStream<T>, where wanted: @escaping @Sendable (T) -> Bool) async -> T? {
        for await value in stream where wanted(value) { return value }
        return nil
    }

    /// A folder listed before is listed from the cache, with the time of that listing, once its server cannot be
    /// reached (an app's last listing, as it showed it); a front door that asks for the failure gets `network`.
    @Test func aFolderListedBeforeIsListedWhenTheServerIsGone() async throws {
        let gone = try await ReferenceServer.start(inMemory: true)
        try gone.root.write("notes/a.txt", "a")
        var configuration = OfficerFiles.Configuration(server: gone.url, tokens: MemoryTokenStore())
        configuration.journalPath = work.path + "/gone-journal.sqlite"
        configuration.cacheDirectory = work.path + "/gone-cache"
        configuration.userAgent = "PhotoApp/2.1"
        configuration.connectTimeout = 5
        let files = try OfficerFiles(configuration: configuration)
        try await files.signIn(email: gone.email, password: gone.password)
        let notes = try files.location("officer:/notes")
        let online = try await files.list(notes)
        #expect(online.listedAt == nil && online.entries.map(\.name) == ["a.txt"])
        gone.service.stop()

        let remembered = try await files.list(notes)
        #expect(remembered.entries.map(\.name) == ["a.txt"])
        #expect(remembered.listedAt != nil, "marked as the cache's, with its time")
        configuration.listsFromCacheWhenUnreachable = false
        let strict = try OfficerFiles(configuration: configuration)
        await #expect {
            _ = try await strict.list(notes)
        } throws: { error in
            (error as? OfficerFilesError)?.category == .network
        }
    }

    @Test func keptChangesAreWatchedSentAndDropped() async throws {
        for (name, text) in [("notes/a.txt", "a"), ("notes/b.txt", "bb")] { try server.root.write(name, text) }
        try FileManager.default.createDirectory(
            atPath: server.root.file("notes/old"), withIntermediateDirectories: true)
        let tokens = MemoryTokenStore()
        let online = try files(offline: false, tokens: tokens)
        try await online.signIn(email: server.email, password: server.password)
        let notes = try online.location("officer:/notes")
        _ = try await online.list(notes)
        let offline = try files(offline: true, tokens: tokens)
        #expect(await value(of: online.pendingChanges(), where: { _ in true }) == [])

        // Kept offline: the move lands in the folder last listed there, by its name.
        let move = try #require(
            try await offline.makeOrQueue(
                .move(
                    try offline.location("officer:/notes/a.txt"), to: try offline.location("officer:/notes/old"),
                    overwrite: false)))
        #expect(move.summary == "mv officer:/notes/a.txt officer:/notes/old/a.txt")
        // The same change typed, as an app shows it in its own words: placed where the server will have it.
        #expect(
            move.change
                == .move(
                    try offline.location("officer:/notes/a.txt"), to: try offline.location("officer:/notes/old/a.txt"),
                    overwrite: false))
        #expect(move.heldBecause == nil)
        let remove = try #require(
            try await offline.makeOrQueue(.remove(try offline.location("officer:/notes/b.txt"), recursive: false)))
        // Another front door sharing the journal sees both, in order.
        let watched = await value(of: online.pendingChanges(), where: { $0.count == 2 })
        #expect(watched?.map(\.id) == [move.id, remove.id])

        // A path never listed has no known version: refused at once, nothing kept.
        await #expect(throws: OfficerFilesError.self) {
            _ = try await offline.makeOrQueue(.remove(try offline.location("officer:/never/x.txt"), recursive: false))
        }
        // A remote on another server keeps no queue here: refused, in its own terms.
        let elsewhere = OfficerRemote(name: "work", server: "http://localhost:1")
        let withRemote = try files(offline: true, tokens: tokens, remotes: [elsewhere])
        let there = try withRemote.location("work:/x")
        do {
            _ = try await withRemote.makeOrQueue(.makeFolder(there, parents: false))
            Issue.record("a change to another server was queued")
        } catch {
            #expect(error.category == .refused)
            #expect(error.message.contains("work:/x"), "\(error.message)")
        }

        // b.txt changes on the server: its removal is held, the move made.
        try server.root.write("notes/b.txt", "changed")
        let send = online.sendPendingChanges()
        var events: [PendingChange] = []
        for await event in send { events.append(event) }
        let held = try await send.value
        #expect(events.map(\.id) == [move.id, remove.id])
        #expect(events[0].heldBecause == nil)
        #expect(events[1].heldBecause?.contains("officer:/notes/b.txt") == true, "\(events)")
        #expect(held.map(\.id) == [remove.id])
        #expect(FileManager.default.contents(atPath: server.root.file("notes/old/a.txt")) == Data("a".utf8))
        #expect(FileManager.default.contents(atPath: server.root.file("notes/b.txt")) == Data("changed".utf8))
        let left = await value(of: offline.pendingChanges(), where: { $0.count == 1 })
        #expect(left?.first?.heldBecause != nil)

        // Dropped: the list empties, and b.txt stays as the server has it.
        try online.dropPendingChange(try #require(held.first))
        #expect(await value(of: offline.pendingChanges(), where: \.isEmpty) == [])
        #expect(FileManager.default.fileExists(atPath: server.root.file("notes/b.txt")))

        // Online, the change is made at once and nothing is kept.
        #expect(try await online.makeOrQueue(.makeFolder(try online.location("officer:/fresh"), parents: false)) == nil)
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: server.root.file("fresh"), isDirectory: &isFolder))
        #expect(isFolder.boolValue)
        #expect(await value(of: online.pendingChanges(), where: { _ in true }) == [])
    }

    /// A change this front door keeps is seen at once by its own watchers: the journal's write wakes them. Their
    /// clock here never moves, so no poll of the journal can have found it.
    @Test func aChangeKeptHereWakesItsWatchersWithoutAPoll() async throws {
        try server.root.write("notes/a.txt", "a")
        let tokens = MemoryTokenStore()
        let online = try files(offline: false, tokens: tokens)
        try await online.signIn(email: server.email, password: server.password)
        _ = try await online.list(try online.location("officer:/notes"))
        let offline = try files(offline: true, tokens: tokens, clock: ManualClock())
        let changes = offline.pendingChanges()
        var seen = changes.makeAsyncIterator()
        #expect(await seen.next() == [])
        let kept = try #require(
            try await offline.makeOrQueue(.remove(try offline.location("officer:/notes/a.txt"), recursive: false)))
        #expect(await seen.next()?.map(\.id) == [kept.id])
    }

    @Test func aPausedDownloadIsWatchedResumedAndGone() async throws {
        let tokens = MemoryTokenStore()
        // The pause rides on a bandwidth limit, which only the libcurl engine can pace.
        let files = try files(offline: false, tokens: tokens, engine: .curl)
        try await files.signIn(email: server.email, password: server.password)
        var bytes = Data(count: 6 << 20)
        for index in stride(from: 0, to: bytes.count, by: 4093) { bytes[index] = UInt8(truncatingIfNeeded: index) }
        try server.root.write("big.bin", bytes)
        let destination = URL(fileURLWithPath: work.file("big.bin"))
        #expect(await value(of: files.unfinishedTransfers(), where: { _ in true }) == [])

        // Paused after its first bytes: the journal keeps it.
        var options = DownloadOptions()
        // Twenty-four seconds for the whole file, so a loaded machine still pauses it part way.
        options.bandwidthLimit = 256 << 10
        let download = files.download(try files.location("officer:/big.bin"), to: destination, options: options)
        // Read off the shared pool: its threads held by other tests would let the download end before the pause.
        await DedicatedExecutor().run {
            for await event in download {
                if case .progress(_, let done) = event, done > 0 { break }
            }
        }
        _ = try? await download.value
        let paused = try #require(
            await value(of: files.unfinishedTransfers(), where: { $0.count == 1 && $0[0].doneBytes > 0 })?.first)
        #expect(!paused.isUpload)
        #expect(paused.file.path == destination.path)
        #expect(paused.remote == "officer:/big.bin")
        #expect(paused.totalBytes == Int64(bytes.count))

        // Resumed to the whole file, and the list empties.
        try await files.resume(paused).value
        #expect(FileManager.default.contents(atPath: destination.path) == bytes)
        #expect(await value(of: files.unfinishedTransfers(), where: \.isEmpty) == [])
    }
}
