import FileModel
import Foundation
import Journal
import TestSupport
import Testing

@testable import Officer

/// The front door's operations against the reference server, without the CLI: its policies (cache, offline,
/// placement, overwrite), its events and its cancellation.
@Suite struct OfficerFilesTests {
    let server: ReferenceServer
    let work = TemporaryDirectory(prefix: "front-door")

    init() async throws {
        server = try await ReferenceServer.start()
    }

    func files(offline: Bool = false, tokens: MemoryTokenStore? = nil) throws -> OfficerFiles {
        var configuration = OfficerFiles.Configuration(server: server.url, tokens: tokens ?? MemoryTokenStore())
        configuration.http.engine = TestEngine.urlSession.engine
        configuration.journalPath = work.path + "/journal.sqlite"
        configuration.cacheDirectory = work.path + "/cache"
        configuration.http.offline = offline
        configuration.http.retry.baseDelay = 0.05
        return try OfficerFiles(configuration: configuration)
    }

    func signedIn() async throws -> (OfficerFiles, MemoryTokenStore) {
        let tokens = MemoryTokenStore()
        let files = try files(tokens: tokens)
        try await files.signIn(email: server.email, password: server.password)
        return (files, tokens)
    }

    /// Runs an operation, collecting its events.
    func collect<Success: Sendable, Failure: Error>(_ operation: ProgressOperation<TransferEvent, Success, Failure>)
        async throws -> (Success, [TransferEvent])
    {
        var events: [TransferEvent] = []
        for await event in operation { events.append(event) }
        return (try await operation.value, events)
    }

    @Test func signsInKeepsTheTokenAndSaysWhyNot() async throws {
        let (files, tokens) = try await signedIn()
        #expect(tokens.token(for: server.url) != nil)
        #expect(try await files.whoAmI().email == server.email)
        let other = try self.files()
        // The front door's one error, with the layer's beneath it.
        let refused = await #expect(throws: OfficerFilesError.self) {
            try await other.signIn(email: server.email, password: "wrong")
        }
        #expect(refused?.underlying is OfficerError)
        do {
            try await other.signIn(email: server.email, password: "wrong")
        } catch {
            #expect(ErrorCategory.of(error) == .authentication)
        }
        let signedOut = try await files.signOut()
        #expect(signedOut.wasSignedIn && signedOut.problem == nil, "revoked on the server")
        #expect(tokens.token(for: server.url) == nil)
    }

    /// Between the last byte and done, a download says it is verifying (its bytes checked against the server's
    /// validator before they take their name), in ranges and in one stream alike: not a stall at 100%.
    @Test(arguments: [1, 3])
    func aDownloadSaysItIsVerifyingBetweenItsLastByteAndDone(_ segments: Int) async throws {
        let (files, _) = try await signedIn()
        let bytes = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        try server.root.write("docs/v\(segments).bin", bytes)
        var options = DownloadOptions()
        options.segments = segments
        let operation = files.download(
            try files.location("officer:/docs/v\(segments).bin"),
            to: URL(fileURLWithPath: work.path + "/v\(segments).bin"), options: options)
        let updates = await Self.collect(operation.progress())
        _ = try await operation.value
        let verifying = try #require(updates.firstIndex { $0.event == .verifying }, "\(updates.map(\.event))")
        #expect(updates[verifying].progress.state == .verifying)
        #expect(updates[verifying].progress.doneBytes == 3_000_000, "every byte was in")
        #expect(updates[(verifying + 1)...].allSatisfy { if case .progress = $0.event { false } else { true } })
        #expect(updates.last?.progress.state == .completed)
    }

    @Test func downloadsOnceThenFromTheCacheAndOffline() async throws {
        let (files, tokens) = try await signedIn()
        try server.root.write("docs/report.txt", String(repeating: "report line\n", count: 5000))
        let path = try files.path("officer:/docs/report.txt")
        let (first, events) = try await collect(files.server.download(path, to: work.path + "/one.txt"))
        #expect(first.bytes == 60_000 && !first.fromCache)
        guard case .started(let total, _, 0, let method, _) = events.first else { Issue.record("\(events)"); return }
        #expect(total == 60_000 && method != .cache)
        #expect(events.contains { if case .progress = $0 { true } else { false } })
        // The server's time, to the millisecond.
        let listed = try await files.server.stat(path).mtime
        let written = try #require(
            try FileManager.default.attributesOfItem(atPath: first.path)[.modificationDate] as? Date)
        #expect(abs(written.timeIntervalSince1970 - listed) < 0.002)

        let (second, secondEvents) = try await collect(files.server.download(path, to: work.path + "/two.txt"))
        #expect(second.fromCache)
        #expect(secondEvents.first == .started(total: 60_000, partSizes: [60_000], resumedBytes: 0, method: .cache))
        // Never over an existing file without force.
        await #expect(throws: DownloadError.self) {
            try await files.server.download(path, to: work.path + "/two.txt").value
        }

        // Offline: the cache answers, and what it lacks is not found, without a request.
        var offlineConfiguration = files.configuration
        offlineConfiguration.http.offline = true
        offlineConfiguration.tokens = tokens
        let offline = try OfficerFiles(configuration: offlineConfiguration)
        #expect(try await offline.server.download(path, to: work.path + "/three.txt").value.fromCache)
        do {
            _ = try await offline.server.download(
                try files.path("officer:/docs/missing.txt"), to: work.path + "/four.txt"
            )
            .value
            Issue.record("expected a refusal")
        } catch {
            #expect(error as? FrontDoorRefusal == .notCachedOffline(try files.path("officer:/docs/missing.txt")))
            #expect(ErrorCategory.of(error) == .notFound)
        }
        await #expect(throws: FrontDoorRefusal.isAFolder(try files.path("officer:/docs"))) {
            try await files.server.download(try files.path("officer:/docs"), to: work.path + "/folder").value
        }
    }

    @Test func uploadsArePlacedAsCpPlacesThemAndNeverReplaceWithoutOverwrite() async throws {
        let (files, _) = try await signedIn()
        let local = try work.write("photo.jpg", "not really a photo")
        try server.root.write("Photos/.keep", "")
        let (placed, events) = try await collect(files.server.upload(local, to: try files.path("officer:/Photos")))
        #expect(placed.method == .tus)
        #expect(
            try String(contentsOfFile: server.root.file("Photos/photo.jpg"), encoding: .utf8) == "not really a photo")
        guard case .started(_, _, _, .tus, _) = events.first else { Issue.record("\(events)"); return }

        do {
            _ = try await files.server.upload(local, to: try files.path("officer:/Photos")).value
            Issue.record("expected a conflict")
        } catch {
            #expect(ErrorCategory.of(error) == .conflict, "\(error)")
            guard case FrontDoorRefusal.exists(let label) = error else {
                Issue.record("not .exists: \(error)"); return
            }
            #expect(label.hasSuffix("/Photos/photo.jpg"), "\(label)")
        }
        var replace = UploadRequest()
        replace.overwrite = true
        _ = try await files.server.upload(
            try work.write("photo.jpg", "second"), to: try files.path("officer:/Photos"), request: replace
        ).value
        #expect(try String(contentsOfFile: server.root.file("Photos/photo.jpg"), encoding: .utf8) == "second")

        do {
            _ = try await files.server.upload(
                local, to: try files.path("officer:/Nope/"),
                request: {
                    var r = UploadRequest(); r.namesFolder = true; return r
                }()
            ).value
            Issue.record("expected not found")
        } catch {
            #expect(ErrorCategory.of(error) == .notFound, "\(error)")
        }
        var create = UploadRequest()
        create.createMissing = true
        _ = try await files.server.upload(local, to: try files.path("officer:/New/Deep/renamed.jpg"), request: create)
            .value
        #expect(FileManager.default.fileExists(atPath: server.root.file("New/Deep/renamed.jpg")))
    }

    @Test func cancellingAnUploadPausesItAndTheSameCallContinues() async throws {
        let (files, tokens) = try await signedIn()
        let proxy = try await startFaultProxy(
            target: "127.0.0.1:\(server.service.port)", ["--direction", "up", "--throttle", "1000000"])
        defer { proxy.stop() }
        var configuration = files.configuration
        configuration.server = proxy.url
        tokens.save(tokens.token(for: server.url)!, for: proxy.url)
        let slow = try OfficerFiles(configuration: configuration)
        let journalPath = configuration.journalPath!
        let local = try work.write("big.bin", Data((0..<12_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }))
        // Fixed 1 MiB chunks: the server confirms the first one within seconds, however the sizer would grow them.
        var request = UploadRequest()
        request.options.chunkSize = 1 << 20
        let operation = slow.server.upload(local, to: try slow.path("officer:/big.bin"), request: request)
        // An app binds to the updates: the bytes it is told of only grow, and the last update says it stopped. The
        // app cancels as one would, from its own loop, once the journal holds confirmed bytes.
        let waiter = Task { try await operation.value }
        let updates = Task {
            var all: [TransferUpdate] = []
            var cancelled = false
            for await update in operation.progress() {
                all.append(update)
                let confirmed =
                    FileManager.default.fileExists(atPath: journalPath)
                    ? ((try? TransferJournal(watching: journalPath).uploads().first?.parts.first?.offset) ?? 0) : 0
                if !cancelled, confirmed > 0 {
                    cancelled = true
                    waiter.cancel()
                }
            }
            return all
        }
        do {
            _ = try await waiter.value
            Issue.record("expected a pause")
        } catch {
            guard case UploadError.paused = error else { Issue.record("\(error)"); return }
            #expect(ErrorCategory.of(error) == .cancelled)
        }
        let seen = await updates.value
        // The pause is an event, and the end state says "paused" (the same call continues), not "cancelled".
        #expect(
            seen.contains { if case .paused(let confirmed, 12_000_000) = $0.event { confirmed > 0 } else { false } })
        #expect(seen.last?.event == nil && seen.last?.progress.state == .paused, "\(String(describing: seen.last))")
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.progress.doneBytes <= $1.progress.doneBytes })
        let stoppedAt = seen.last?.progress.doneBytes ?? 0
        #expect(stoppedAt > 0 && stoppedAt < 12_000_000 && seen.last?.progress.filesFailed == 1)

        let again = slow.server.upload(local, to: try slow.path("officer:/big.bin"))
        let resumedUpdates = await Self.collect(again.progress())
        let resumed = try await again.value
        #expect(resumed.resumedBytes > 0)
        // The resumed bytes are checked as a whole once every byte is there: said as such, not a stall at 100%.
        let verifying = try #require(resumedUpdates.firstIndex { $0.event == .verifying }, "\(resumedUpdates)")
        #expect(resumedUpdates[verifying].progress.doneBytes == 12_000_000)
        // The bytes the server had are resumed, never speed; the end has them all.
        let end = try #require(resumedUpdates.last?.progress)
        #expect(
            end.state == .completed && end.doneBytes == 12_000_000 && end.resumedBytes == resumed.resumedBytes, "\(end)"
        )
        #expect(end.movedBytes == 12_000_000 - resumed.resumedBytes)
        #expect(try ProcessRunner.sha256(of: server.root.file("big.bin")) == (try ProcessRunner.sha256(of: local)))
    }

    static func collect(_ updates: TransferUpdates) async -> [TransferUpdate] {
        var all: [TransferUpdate] = []
        for await update in updates { all.append(update) }
        return all
    }

    @Test func runsAnActionWithItsStepsAndRefusesWhatDoesNotFit() async throws {
        let (files, _) = try await signedIn()
        var request = RemoteActionRequest(action: .tts, target: .text("front door"))
        request.download = work.path + "/spoken.wav"
        let operation = files.runAction(request)
        var steps: [RemoteActionEvent] = []
        for await step in operation { steps.append(step) }
        let result = try await operation.value
        #expect(steps.contains(.processing) && result.savedPath == work.path + "/spoken.wav" && !result.fromCache)
        // The produced file's download tells its bytes and its size (it said "0 of unknown" once per buffer).
        let downloads = steps.compactMap {
            if case .downloading(let done, let total) = $0 { (done, total) } else { nil }
        }
        let size = try #require(result.outputBytes)
        #expect(downloads.allSatisfy { $0.1 == size }, "\(downloads)")
        #expect(downloads.last?.0 == size && downloads.count < 40, "\(downloads)")
        #expect(
            (try FileManager.default.attributesOfItem(atPath: work.path + "/spoken.wav")[.size] as? Int ?? 0) > 1000)
        do {
            _ = try await files.runAction(RemoteActionRequest(action: .transcribe, target: .text("not audio"))).value
            Issue.record("expected a refusal")
        } catch {
            #expect(ErrorCategory.of(error) == .refused, "\(error)")
        }
    }
}
