import FileModel
import Foundation
import TestSupport
import Testing

@testable import HTTP
@testable import Officer
@testable import Transfer

/// The library API an app calls for AI actions, against the reference server's engines.
@Suite struct RemoteActionRunnerTests {
    let server: ReferenceServer
    let client: OfficerClient
    let folder = TemporaryDirectory(prefix: "runner")

    init() async throws {
        server = try await ReferenceServer.start()
        var client = OfficerClient(server: server.url, http: .curl)
        client.token = try await client.signIn(email: server.email, password: server.password).token
        self.client = client
    }

    @Test func speaksTextThenAnswersFromTheCache() async throws {
        let cache = try ContentCache(directory: folder.path + "/cache")
        let runner = RemoteActionRunner(client: client, journal: nil, cache: cache)
        var request = RemoteActionRequest(action: .tts, target: .text("Testing one two"))
        request.download = folder.path + "/out/"
        let events = ActionEventLog()
        let first = try await runner.run(request) { events.append($0) }
        #expect(!first.fromCache && first.engine == "espeak-ng" && events.values.contains(.processing))
        let saved = try #require(first.savedPath)
        #expect(try Data(contentsOf: URL(fileURLWithPath: saved)).prefix(4) == Data("RIFF".utf8))
        request.download = folder.path + "/again.wav"
        let second = try await runner.run(request)
        #expect(second.fromCache && second.savedPath == folder.path + "/again.wav")
        #expect(try ProcessRunner.sha256(of: saved) == (try ProcessRunner.sha256(of: folder.path + "/again.wav")))
    }

    @Test func refusesAnActionThatDoesNotFitBeforeSendingAnything() async throws {
        try server.root.write("song.mp3", Data(repeating: 0, count: 100))
        let runner = RemoteActionRunner(client: client, journal: nil, cache: nil)
        await #expect(throws: RemoteActionError.self) {
            try await runner.run(RemoteActionRequest(action: .ocr, target: .remote(try RemotePath(path: "/song.mp3"))))
        }
        do {
            _ = try await runner.run(RemoteActionRequest(action: .transcribe, target: .text("not audio")))
            Issue.record("transcribing given text must be refused")
        } catch {
            #expect(error.description.contains("transcribe does not apply"))
        }
    }
}

/// Collects events from a callback that may run on any thread.
final class ActionEventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [RemoteActionEvent] = []
    func append(_ event: RemoteActionEvent) { lock.withLock { events.append(event) } }
    var values: [RemoteActionEvent] { lock.withLock { events } }
}
