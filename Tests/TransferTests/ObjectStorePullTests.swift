import FileModel
import Foundation
import Officer
import TestSupport
import Testing

@testable import HTTP

/// A sync's pull from an S3 store, against the real OpenStack Swift store: what it asks of each object.
@Suite struct ObjectStorePullTests {
    let work = TemporaryDirectory(prefix: "s3-pull", inMemory: true)

    /// A large object whose listing gave its ETag goes in ranges held to that version at once: the HEAD that tells
    /// its stored SHA-256 and time is asked beside them, not before (a round trip less per object). Here the HEAD's
    /// answer is held until a range of the object has been asked, which a HEAD asked first would never allow; the
    /// bytes, their check (the stored SHA-256) and the stored time arrive as before.
    /// A front door with the store as remote `st`, over `engine`.
    func frontDoor(_ engine: any HTTPEngine) async throws -> OfficerFiles {
        let store = try await ObjectStoreServer.shared()
        var configuration = OfficerFiles.Configuration(server: nil)
        configuration.http.engine = engine
        configuration.journalPath = work.path + "/journal.sqlite"
        configuration.objectStores = [
            ObjectStoreRemote(name: "st", endpoint: store.url, accessKey: store.accessKey, secretKey: store.secretKey)
        ]
        return try OfficerFiles(configuration: configuration)
    }

    @Test func aLargeObjectsRangesGoBesideItsHead() async throws {
        let bucket = ObjectStoreServer.freshBucket("beside")
        let engine = HeadHoldingEngine(TestEngine.curl.engine, key: "big.bin")
        let files = try await frontDoor(engine)
        let content = TestBytes.pattern(6 << 20, seed: 1)
        let source = try work.write("up/big.bin", content)
        _ = try await files.makeFolder(try files.location("st:\(bucket)"), parents: true)
        // Its own time, stored with it: the pull must give the file that time.
        let stamped = Date(timeIntervalSince1970: 1_500_000_000.25)
        try FileManager.default.setAttributes([.modificationDate: stamped], ofItemAtPath: source)
        _ = try await files.upload(URL(fileURLWithPath: source), to: try files.location("st:\(bucket)/")).value

        engine.holding.withLock { $0 = true }
        let sync = files.sync(
            from: try files.location("st:\(bucket)"), to: .local(work.file("down")),
            options: SyncOptions(direction: .pull))
        _ = try await sync.value
        #expect(engine.heldAnswerUntilARange.current == true, "the HEAD was answered before any range was asked")
        #expect(try Data(contentsOf: URL(fileURLWithPath: work.file("down/big.bin"))) == content)
        let pulled = try FileManager.default.attributesOfItem(atPath: work.file("down/big.bin"))
        let time = try #require(pulled[.modificationDate] as? Date)
        #expect(abs(time.timeIntervalSince1970 - stamped.timeIntervalSince1970) < 0.002)
    }
}

extension ObjectStorePullTests {
    /// An object replaced after the listing (a sync) or the HEAD (a get) gave its ETag: the ranges held to that
    /// version are refused (412), and the download starts over with the version there now, checked by its stored
    /// SHA-256.
    @Test(arguments: ["sync", "get"]) func anObjectReplacedAfterItsListingArrivesAsItIsNow(_ command: String)
        async throws
    {
        let bucket = ObjectStoreServer.freshBucket("relisted")
        let old = TestBytes.pattern(6 << 20, seed: 1)
        let new = TestBytes.pattern(6 << 20, seed: 2)
        let oldFile = try work.write("up/old/f.bin", old)
        let newFile = try work.write("up/new/f.bin", new)
        let replaced = LockedValue(false)
        let filesBox = LockedValue<OfficerFiles?>(nil)
        let engine = HeadHoldingEngine(TestEngine.curl.engine, key: "f.bin") {
            let files = try #require(filesBox.current)
            _ = try await files.upload(
                URL(fileURLWithPath: newFile), to: try files.location("st:\(bucket)/"), overwrite: true
            ).value
            replaced.withLock { $0 = true }
        }
        let files = try await frontDoor(engine)
        filesBox.withLock { $0 = files }
        _ = try await files.makeFolder(try files.location("st:\(bucket)"), parents: true)
        _ = try await files.upload(URL(fileURLWithPath: oldFile), to: try files.location("st:\(bucket)/")).value

        // A get's HEAD is what finds the object: not held.
        engine.holding.withLock { $0 = command == "sync" }
        if command == "sync" {
            _ = try await files.sync(
                from: try files.location("st:\(bucket)"), to: .local(work.file("down")),
                options: SyncOptions(direction: .pull)
            ).value
        } else {
            try FileManager.default.createDirectory(atPath: work.file("down"), withIntermediateDirectories: true)
            _ = try await files.download(
                try files.location("st:\(bucket)/f.bin"), to: URL(fileURLWithPath: work.file("down/f.bin"))
            ).value
        }
        #expect(replaced.current)
        #expect(try Data(contentsOf: URL(fileURLWithPath: work.file("down/f.bin"))) == new)
    }
}

extension ObjectStorePullTests {
    /// The HEAD asked beside the ranges finds the object replaced after the ranges came whole (they were held to
    /// the listed version): that version's stored digest is gone with it, so its bytes are not saved unchecked; the
    /// object is fetched again as it is now, and the file holds the new version.
    @Test func aHeadBesideThatFindsANewerVersionFetchesItAgain() async throws {
        let bucket = ObjectStoreServer.freshBucket("swapped")
        let old = TestBytes.pattern(6 << 20, seed: 1)
        let new = TestBytes.pattern(6 << 20, seed: 2)
        let oldFile = try work.write("up/old/f.bin", old)
        let newFile = try work.write("up/new/f.bin", new)
        let filesBox = LockedValue<OfficerFiles?>(nil)
        let engine = HeadAfterRangeEngine(TestEngine.curl.engine, key: "f.bin") {
            let files = try #require(filesBox.current)
            _ = try await files.upload(
                URL(fileURLWithPath: newFile), to: try files.location("st:\(bucket)/"), overwrite: true
            ).value
        }
        let files = try await frontDoor(engine)
        filesBox.withLock { $0 = files }
        _ = try await files.makeFolder(try files.location("st:\(bucket)"), parents: true)
        _ = try await files.upload(URL(fileURLWithPath: oldFile), to: try files.location("st:\(bucket)/")).value

        engine.armed.withLock { $0 = true }
        _ = try await files.sync(
            from: try files.location("st:\(bucket)"), to: .local(work.file("down")),
            options: SyncOptions(direction: .pull)
        ).value
        #expect(engine.swapped.current == true, "the HEAD went after a range came whole, the object replaced")
        #expect(try Data(contentsOf: URL(fileURLWithPath: work.file("down/f.bin"))) == new)
    }
}

/// A real engine that, while armed, sends the first HEAD of `key` only once a range of it has been answered, after
/// a test's step (the object replaced): the HEAD then sees another version than the ranges brought.
final class HeadAfterRangeEngine: WrappingEngine, Sendable {
    let engine: any HTTPEngine
    let key: String
    let armed = LockedValue(false)
    /// Whether the HEAD went after a range was answered and the step ran (nil: no HEAD of the key while armed).
    let swapped = LockedValue<Bool?>(nil)
    private let step: @Sendable () async throws -> Void
    private let rangeAnswered = AsyncGate()

    init(_ engine: any HTTPEngine, key: String, step: @escaping @Sendable () async throws -> Void) {
        self.engine = engine
        self.key = key
        self.step = step
    }

    func perform(
        _ request: HTTPRequest, configuration: HTTPClientConfiguration,
        onProgress: (@Sendable (TransferProgress) -> Void)?
    ) async throws -> HTTPResponse {
        let ofKey = request.url.hasSuffix("/" + key) && armed.current
        if ofKey, request.method == "HEAD", swapped.current == nil {
            swapped.withLock { $0 = false }
            let answered = await rangeAnswered.wait(seconds: 60)
            if answered { try await step() }
            swapped.withLock { $0 = answered }
        }
        let response = try await engine.perform(request, configuration: configuration, onProgress: onProgress)
        if ofKey, request.method == "GET", request.headers["Range"] != nil { rangeAnswered.open() }
        return response
    }
}

/// A real engine that holds the answer to a HEAD of `key` until a GET of a range of it has been sent (or 60 s
/// have passed: then the HEAD was what the GETs waited for), and runs a test's step before the first range.
final class HeadHoldingEngine: WrappingEngine, Sendable {
    let engine: any HTTPEngine
    let key: String
    /// Whether HEADs of the key are held.
    let holding = LockedValue(false)
    /// Whether the held answer was let go by a range (nil: no HEAD of the key was held).
    let heldAnswerUntilARange = LockedValue<Bool?>(nil)
    private let rangeAsked = AsyncGate()

    /// Runs before the first range of the key is handed on (a test's replacement of the object at that moment).
    let beforeFirstRange: (@Sendable () async throws -> Void)?
    private let rangesSent = LockedValue(0)

    init(_ engine: any HTTPEngine, key: String, beforeFirstRange: (@Sendable () async throws -> Void)? = nil) {
        self.engine = engine
        self.key = key
        self.beforeFirstRange = beforeFirstRange
    }

    func perform(
        _ request: HTTPRequest, configuration: HTTPClientConfiguration,
        onProgress: (@Sendable (TransferProgress) -> Void)?
    ) async throws -> HTTPResponse {
        let ofKey = request.url.hasSuffix("/" + key)
        if ofKey, request.method == "GET", request.headers["Range"] != nil {
            if rangesSent.withLock({
                $0 += 1; return $0
            }) == 1 {
                try await beforeFirstRange?()
            }
            rangeAsked.open()
        }
        let response = try await engine.perform(request, configuration: configuration, onProgress: onProgress)
        if ofKey, request.method == "HEAD", holding.current {
            let opened = await rangeAsked.wait(seconds: 60)
            heldAnswerUntilARange.withLock { $0 = opened }
        }
        return response
    }
}

/// Opens once; `wait` returns whether it opened before a deadline (the deadline decides only a failing case).
actor AsyncGate {
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    nonisolated func open() { Task { await self.opening() } }

    private func opening() {
        isOpen = true
        for continuation in waiting { continuation.resume() }
        waiting = []
    }

    private func opened() async {
        if isOpen { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    func wait(seconds: Double) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await self.opened(); return true
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds)); return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            if !first { self.opening() }  // lets the other child end
            return first
        }
    }
}
