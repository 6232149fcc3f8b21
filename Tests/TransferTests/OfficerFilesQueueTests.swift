import FileModel
import Foundation
import Journal
import TestSupport
import Testing

@testable import Officer

/// The front door's queue without the CLI: applyOrQueue offline and online, expectations from the cached
/// listing, a replay that holds a conflict and the write behind it.
@Suite struct OfficerFilesQueueTests {
    let server: ReferenceServer
    let work = TemporaryDirectory(prefix: "front-door-queue")

    init() async throws {
        server = try await ReferenceServer.start()
    }

    func files(offline: Bool, tokens: MemoryTokenStore) throws -> OfficerFiles {
        var configuration = OfficerFiles.Configuration(server: server.url, tokens: tokens)
        configuration.http.engine = TestEngine.urlSession.engine
        configuration.journalPath = work.path + "/journal.sqlite"
        configuration.cacheDirectory = work.path + "/cache"
        configuration.http.offline = offline
        return try OfficerFiles(configuration: configuration)
    }

    @Test func offlineWritesAreQueuedWithWhatWasSeenAndReplayed() async throws {
        let tokens = MemoryTokenStore()
        let online = try files(offline: false, tokens: tokens)
        try await online.signIn(email: server.email, password: server.password)
        try server.root.write("notes/a.txt", "a")
        try server.root.write("notes/b.txt", "bb")
        _ = try await online.server.list(try online.path("officer:/notes"))
        let offline = try files(offline: true, tokens: tokens)

        #expect(
            try offline.server.lastSeen(try offline.path("officer:/notes/a.txt"))
                == PathState(try await online.server.stat(try online.path("officer:/notes/a.txt"))))
        #expect(try offline.server.lastSeen(try offline.path("officer:/notes/none.txt")) == .absent)
        #expect(try offline.server.lastSeen(try offline.path("officer:/never/listed.txt")) == nil)

        let move = QueuedWrite(kind: .move, root: "home", path: "/notes/a.txt", destination: "/notes/a2.txt")
        let queued = try #require(try await offline.server.applyOrQueue(move))
        #expect(
            queued.write.expectations == [
                PathExpectation(
                    path: "/notes/a.txt",
                    state: try #require(try offline.server.lastSeen(try offline.path("officer:/notes/a.txt")))),
                PathExpectation(path: "/notes/a2.txt", state: .absent),
            ])
        _ = try #require(
            try await offline.server.applyOrQueue(QueuedWrite(kind: .remove, root: "home", path: "/notes/b.txt")))
        // A change that contradicts a queued one (moving what is queued for removal) is refused at once.
        await #expect(
            throws: QueueError.contradicts(try offline.path("officer:/notes/b.txt"), earlier: "rm officer:/notes/b.txt")
        ) {
            _ = try await offline.server.applyOrQueue(
                QueuedWrite(kind: .move, root: "home", path: "/notes/b.txt", destination: "/notes/b-old.txt"))
        }
        let replacement = try work.write("b-new.txt", "new b")
        _ = try #require(
            try await offline.server.applyOrQueue(
                QueuedWrite(kind: .upload, root: "home", path: "/notes/b.txt", local: replacement)))
        await #expect(throws: QueueError.unknownVersion(try offline.path("officer:/never/listed.txt"))) {
            _ = try await offline.server.applyOrQueue(
                QueuedWrite(kind: .remove, root: "home", path: "/never/listed.txt"))
        }
        #expect(try offline.server.queuedWrites().map(\.id) == [1, 2, 3])

        // b.txt changes on the server: its removal is held, and the later move of it waits behind it.
        try server.root.write("notes/b.txt", "changed")
        let replay = online.server.replayQueue()
        var events: [QueueEvent] = []
        for await event in replay { events.append(event) }
        let summary = try await replay.value
        #expect(summary == QueueReplaySummary(applied: 1, conflicts: 1, blocked: 1))
        #expect(events.count == 3)
        if case .blocked(let item) = events[2] {
            #expect(item.note?.contains("rm officer:/notes/b.txt") == true)
        } else {
            Issue.record("\(events)")
        }
        #expect(FileManager.default.fileExists(atPath: server.root.file("notes/a2.txt")))
        #expect(FileManager.default.contents(atPath: server.root.file("notes/b.txt")) == Data("changed".utf8))
        #expect(try online.server.queuedWrites().map(\.state) == [.conflict, .blocked])

        // Online, applyOrQueue applies at once and keeps nothing.
        #expect(
            try await online.server.applyOrQueue(QueuedWrite(kind: .makeFolder, root: "home", path: "/fresh")) == nil)
        #expect(FileManager.default.fileExists(atPath: server.root.file("fresh")))
        #expect(try online.server.queuedWrites().count == 2)
    }
}
