import FileModel
import Foundation
import Officer
import TestSupport
import Testing

/// `upload(photos:preparing:to:)`: one call prepares and uploads a batch, a damaged photo fails alone, the
/// prepared copies go, and a paused batch names the photo, not its copy in the cache.
@Suite struct FrontDoorPhotoTests {
    let server: ReferenceServer
    let work = TemporaryDirectory(prefix: "front-door-photos")

    init() async throws {
        server = try await ReferenceServer.start()
    }

    func files(server url: String) async throws -> OfficerFiles {
        var configuration = OfficerFiles.Configuration(server: url, tokens: MemoryTokenStore())
        configuration.http.engine = TestEngine.urlSession.engine
        configuration.journalPath = work.path + "/state/journal.sqlite"
        configuration.cacheDirectory = work.path + "/state/cache"
        let files = try OfficerFiles(configuration: configuration)
        try await files.signIn(email: server.email, password: server.password)
        return files
    }

    var preparedCopies: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: work.path + "/state/prepared")) ?? []
    }

    func vips(_ arguments: [String]) throws {
        let made = try ProcessRunner.run("/usr/bin/vips", arguments)
        #expect(made.status == 0, "\(made.stderr)")
    }

    @Test func preparesAndUploadsABatchWithADamagedPhotoFailingAlone() async throws {
        let files = try await files(server: server.url)
        try await files.makeFolder(try files.location("officer:/Photos"), parents: true)
        try vips(["gaussnoise", work.file("big.jpg"), "4000", "3000"])
        try vips(["gaussnoise", work.file("small.png"), "300", "200"])
        let damaged = try work.write("damaged.jpg", Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(repeating: 1, count: 300))
        let photos = [work.file("big.jpg"), damaged, work.file("small.png")].map { URL(fileURLWithPath: $0) }
        let operation = files.upload(photos: photos, to: try files.location("officer:/Photos/"))
        var parts = 0
        for await event in operation {
            if case .started(_, let sizes, _, _, _) = event { parts = sizes.count }
        }
        let outcomes = try await operation.value
        #expect(parts == 3)
        #expect(outcomes.map { $0.result != nil } == [true, false, true])
        #expect(outcomes[0].location?.description == "officer:/Photos/big.jpg")
        let failure = try #require(outcomes[1].failure)
        #expect(failure.subject == damaged && failure.message.hasPrefix(damaged), "\(failure.message)")
        let width = try ProcessRunner.run("/usr/bin/vipsheader", ["-f", "width", server.root.file("Photos/big.jpg")])
        #expect(width.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "2048")
        #expect(FileManager.default.fileExists(atPath: server.root.file("Photos/small.png")))
        #expect(!FileManager.default.fileExists(atPath: server.root.file("Photos/damaged.jpg")))
        #expect(preparedCopies.isEmpty, "\(preparedCopies)")
    }

    @Test func aPausedBatchNamesThePhotoAndTheSameCallContinues() async throws {
        // The upload's connection is held after 64 KiB until the pause lands, however late a loaded machine lets the
        // consumer read its first event; the rerun's connections flow.
        let proxy = try await startFaultProxy(
            target: "127.0.0.1:\(server.service.port)",
            ["--direction", "up", "--stall-after", "65536", "--stall-seconds", "3600", "--stall-once"])
        defer { proxy.stop() }
        let files = try await files(server: proxy.url)
        try await files.makeFolder(try files.location("officer:/Photos"), parents: true)
        try vips(["gaussnoise", work.file("noise.jpg[Q=100]"), "2048", "2048"])
        let photos = [URL(fileURLWithPath: work.file("noise.jpg"))]
        let operation = files.upload(photos: photos, to: try files.location("officer:/Photos/"))
        // Stopped once its upload is under way (the first report of the photo's part), as an app's Cancel would.
        for await event in operation {
            if case .progress = event { operation.cancel() }
        }
        do {
            _ = try await operation.value
            Issue.record("expected a pause")
        } catch {
            // An operation's value throws the front door's one error type.
            let paused = error  // typed: OfficerFilesError
            #expect(paused.category == .cancelled, "\(paused)")
            #expect(
                paused.message.contains(work.file("noise.jpg")) && !paused.message.contains("prepared"),
                "\(paused.message)")
        }
        #expect(preparedCopies.count == 1, "the prepared copy stays for the rerun")
        #expect(!FileManager.default.fileExists(atPath: server.root.file("Photos/noise.jpg")), "nothing stored yet")
        // The same call on the same front door continues the paused upload.
        let again = try await files.upload(photos: photos, to: try files.location("officer:/Photos/")).value
        let outcome = try #require(again.first)
        #expect(outcome.result != nil, "\(String(describing: outcome.failure))")
        let width = try ProcessRunner.run("/usr/bin/vipsheader", ["-f", "width", server.root.file("Photos/noise.jpg")])
        #expect(width.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "2048")
        #expect(preparedCopies.isEmpty)
    }
}
