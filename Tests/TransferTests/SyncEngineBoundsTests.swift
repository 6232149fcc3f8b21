import FileModel
import Foundation
import TestSupport
import Testing

@testable import HTTP
@testable import Officer
@testable import Transfer

/// A remote that lists what it is told to, for the engine's bounds without a server.
private struct ScriptedRemote: SyncRemote {
    let badNames: Int
    var description: String { "scripted" }

    func makeIterator(missingRootIsEmpty: Bool) -> any SyncRemoteIterator { BadNameIterator(count: badNames) }
    func makeDirectory(_ path: SyncPath) async throws {}
    func upload(_ localFile: String, to path: SyncPath, mtime: Double, onProgress: @escaping @Sendable (Int64) -> Void)
        async throws
    {}
    func download(_ item: SyncItem, to localFile: String, onProgress: @escaping @Sendable (Int64) -> Void)
        async throws -> SyncFetched
    { SyncFetched() }
    func delete(_ path: SyncPath, isDirectory: Bool) async throws {}
    func sha256(_ path: SyncPath) async throws -> String { "" }
    func setModificationTime(_ path: SyncPath, to mtime: Double) async throws {}
}

/// Every entry a name the rule refuses, each in its own subtree so none hides another.
private final class BadNameIterator: SyncRemoteIterator, @unchecked Sendable {
    private var left: Int
    init(count: Int) { left = count }
    func next() async throws -> Result<SyncItem, SyncNameError>? {
        guard left > 0 else { return nil }
        left -= 1
        return .failure(SyncNameError(name: "/s/bad\u{1b}\(left)", reason: "a control character in the name"))
    }
}

@Suite(.timeLimit(.minutes(30))) struct SyncEngineBoundsTests {
    /// The automatic budget follows the link: more in flight where round trips are long (up to s5cmd's 256), at once
    /// until a first cut and one a transfer after; halved by each answer asking to slow down and by a climbing latency, never below four; a budget
    /// the user gave is kept.
    @Test func theChosenBudgetFollowsTheRoundTripAndBacksOffWhenAskedTo() async {
        #expect(SyncWorkBounds.budget(forRoundTrip: nil) == 64)
        #expect(SyncWorkBounds.budget(forRoundTrip: .milliseconds(20)) == 64)
        #expect(SyncWorkBounds.budget(forRoundTrip: .milliseconds(150)) == 192)
        #expect(SyncWorkBounds.budget(forRoundTrip: .seconds(2)) == 256)

        let meter = LinkMeter()
        meter.record(status: 200, elapsed: .milliseconds(160))
        meter.record(status: 200, elapsed: .milliseconds(150))
        meter.record(status: 200, elapsed: .milliseconds(90), roundTrip: false)  // a request with a body
        #expect(meter.roundTrip == .milliseconds(150))
        #expect(!meter.latencyClimbs)
        var bounds = SyncWorkBounds(options: SyncOptions(direction: .push), meters: [meter])
        await withTaskGroup(of: Int.self) { group in
            await bounds.add(to: &group, isCheck: false, size: 1000) {}
            #expect(bounds.currentBudget == 192, "the round trip's budget at once, before any cut")
            for _ in 0..<300 { await bounds.add(to: &group, isCheck: false, size: 1000) {} }
            #expect(bounds.currentBudget == 192)
            meter.record(status: 503, elapsed: .milliseconds(150))
            await bounds.add(to: &group, isCheck: false, size: 1000) {}
            #expect(bounds.currentBudget == 96, "halved by a slow-down answer")
            // Queues build up: the recent time of small exchanges climbs past four times the shortest. A quarter off
            // once a budget's worth of transfers went since the last cut, and not grown meanwhile.
            for _ in 0..<30 { meter.record(status: 200, elapsed: .milliseconds(600)) }
            #expect(meter.latencyClimbs)
            for _ in 0..<95 { await bounds.add(to: &group, isCheck: false, size: 1000) {} }
            #expect(bounds.currentBudget == 96, "not cut again before the last cut drained")
            await bounds.add(to: &group, isCheck: false, size: 1000) {}
            #expect(bounds.currentBudget == 72, "a quarter off for a climbing latency")
            // The queues drain: the budget grows again.
            for _ in 0..<30 { meter.record(status: 200, elapsed: .milliseconds(150)) }
            #expect(!meter.latencyClimbs)
            await bounds.add(to: &group, isCheck: false, size: 1000) {}
            #expect(bounds.currentBudget == 73)
            for _ in 0..<6 {
                meter.record(status: 429, elapsed: nil)
                await bounds.add(to: &group, isCheck: false, size: 1000) {}
            }
            #expect(bounds.currentBudget == SyncWorkBounds.leastBudget)
            await group.waitForAll()
        }
        var options = SyncOptions(direction: .push)
        options.transfers = 8
        var given = SyncWorkBounds(options: options, meters: [meter])
        await withTaskGroup(of: Int.self) { group in
            for _ in 0..<20 { await given.add(to: &group, isCheck: false, size: 1000) {} }
            #expect(given.currentBudget == 8)
            await group.waitForAll()
        }
    }

    @Test func endlessRefusalsAreCountedNotKept() async throws {
        let local = TemporaryDirectory(prefix: "bounds")
        var options = SyncOptions(direction: .pull)
        options.dryRun = true
        let engine = SyncEngine(localRoot: local.path, remote: ScriptedRemote(badNames: 1500), options: options)
        let report = await engine.run()
        #expect(report.failures.count == SyncReport.listedFailureLimit)
        #expect(report.unlistedFailures == 500 && report.failureCount == 1500 && !report.succeeded)
    }
}

/// How many of one kind of call overlap at most. The first calls wait until `holdUntil` of them are in flight
/// at once, then none waits: the most the engine allows is reached whatever the machine's load, with no call
/// taking time (a bound never reached would end the test at its time limit).
private final class Overlap: Sendable {
    private struct State {
        var now = 0
        var top = 0
        var open: Bool
        var waiting: [CheckedContinuation<Void, Never>] = []
    }
    private let state: LockedValue<State>
    private let hold: Int

    init(holdUntil hold: Int = 0) {
        self.hold = hold
        state = LockedValue(State(open: hold <= 1))
    }

    var most: Int { state.withLock { $0.top } }

    /// Runs `work` counted among the calls in flight.
    func during<T>(_ work: () async throws -> T) async rethrows -> T {
        let hold = hold
        let released = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.now += 1
            state.top = max(state.top, state.now)
            guard !state.open, state.now >= hold else { return [] }
            state.open = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for waiter in released { waiter.resume() }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let goes = state.withLock { state in
                if !state.open { state.waiting.append(continuation) }
                return state.open
            }
            if goes { continuation.resume() }
        }
        defer { state.withLock { $0.now -= 1 } }
        return try await work()
    }
}

/// A remote that lists the items it is given (in sync order) and records what is made and sent to it: the folders
/// asked for, the uploads, and how many uploads and how many fetches from it (taking `fetchTime`) ran at once.
private final class RecordingRemote: SyncRemote, @unchecked Sendable {
    let items: [SyncItem]
    let impliesFolders: Bool
    let sendFile: String
    let uploadFails: Set<String>
    let fetchesAFile: Bool
    let uploads: Overlap
    let fetches: Overlap
    private let lock = NSLock()
    private(set) var foldersMade: [String] = []
    private(set) var uploaded: [String] = []

    init(
        items: [SyncItem] = [], impliesFolders: Bool = false, sendFile: String = "", uploadFails: Set<String> = [],
        holdUploadsUntil: Int = 0, fetchesAFile: Bool = false, holdFetchesUntil: Int = 0
    ) {
        self.items = items
        self.impliesFolders = impliesFolders
        self.sendFile = sendFile
        self.uploadFails = uploadFails
        self.fetchesAFile = fetchesAFile
        uploads = Overlap(holdUntil: holdUploadsUntil)
        fetches = Overlap(holdUntil: holdFetchesUntil)
    }

    var description: String { "recording" }
    func makeIterator(missingRootIsEmpty: Bool) -> any SyncRemoteIterator { ItemListIterator(items) }
    func makeDirectory(_ path: SyncPath) async throws { lock.withLock { foldersMade.append(path.description) } }
    func upload(_ localFile: String, to path: SyncPath, mtime: Double, onProgress: @escaping @Sendable (Int64) -> Void)
        async throws
    {
        await uploads.during {}
        lock.withLock { uploaded.append(path.description) }
        if uploadFails.contains(path.description) { throw RemotePathError.invalidComponent(path.name) }
    }
    func download(_ item: SyncItem, to localFile: String, onProgress: @escaping @Sendable (Int64) -> Void)
        async throws -> SyncFetched
    { SyncFetched() }
    func delete(_ path: SyncPath, isDirectory: Bool) async throws {}
    func sha256(_ path: SyncPath) async throws -> String { "" }
    func setModificationTime(_ path: SyncPath, to mtime: Double) async throws {}
    /// Sends one small local file for every item (the engine's bounds do not depend on the bytes), fetched (a
    /// staged copy) when `fetchesAFile`.
    func fileToSend(_ item: SyncItem, staging: String, onProgress: @escaping @Sendable (Int64) -> Void) async throws
        -> SyncSentFile
    {
        guard fetchesAFile else { return SyncSentFile(path: sendFile, wasFetched: false, isCopy: false) }
        await fetches.during {}
        return SyncSentFile(path: sendFile, wasFetched: true, isCopy: false)
    }
}

private final class ItemListIterator: SyncRemoteIterator, @unchecked Sendable {
    private var left: ArraySlice<SyncItem>
    init(_ items: [SyncItem]) { left = ArraySlice(items) }
    func next() async throws -> Result<SyncItem, SyncNameError>? { left.popFirst().map { .success($0) } }
}

private func file(_ path: String, size: Int64 = 100) -> SyncItem {
    SyncItem(path: SyncPath(path.split(separator: "/").map(String.init)), kind: .file, size: size, mtime: 1_700_000_000)
}

private func folder(_ path: String) -> SyncItem {
    SyncItem(
        path: SyncPath(path.split(separator: "/").map(String.init)), kind: .directory, size: 0, mtime: 1_700_000_000)
}

extension SyncEngineBoundsTests {
    private func engine(_ source: RecordingRemote, _ destination: RecordingRemote, transfers: Int? = nil) -> SyncEngine
    {
        var options = SyncOptions(direction: .push)
        options.transfers = transfers
        return SyncEngine(
            source: source, destination: destination, stagingFolder: TemporaryDirectory(prefix: "staging").path,
            options: options)
    }

    /// Without `--transfers`, small files go 64 at once and files of 15 MiB or more four at once; given, N at once.
    @Test func theTransferBudgetWeighsFilesBySize() async throws {
        let local = TemporaryDirectory(prefix: "budget")
        let sent = try local.write("one.bin", "x")
        let small = RecordingRemote(items: (0..<200).map { file(String(format: "f%03d", $0)) }, sendFile: sent)
        let smallTarget = RecordingRemote(holdUploadsUntil: SyncWorkBounds.automaticBudget)
        let smallReport = await engine(small, smallTarget).run()
        #expect(smallReport.transferred == 200 && smallReport.succeeded)
        #expect(smallTarget.uploads.most == SyncWorkBounds.automaticBudget, "\(smallTarget.uploads.most)")

        let large = RecordingRemote(
            items: (0..<12).map { file(String(format: "big%02d", $0), size: 20 << 20) }, sendFile: sent)
        let largeTarget = RecordingRemote(holdUploadsUntil: 4)
        #expect(await engine(large, largeTarget).run().transferred == 12)
        #expect(largeTarget.uploads.most == 4, "\(largeTarget.uploads.most)")

        let given = RecordingRemote(items: (0..<40).map { file(String(format: "g%03d", $0)) }, sendFile: sent)
        let givenTarget = RecordingRemote(holdUploadsUntil: 3)
        #expect(await engine(given, givenTarget, transfers: 3).run().transferred == 40)
        #expect(givenTarget.uploads.most == 3, "\(givenTarget.uploads.most)")
    }

    /// Where a folder exists once something is written in it (an object store), only an empty folder is made (a
    /// marker); every new folder is reported made once it exists, and a folder whose only file failed is not.
    @Test func impliedFoldersAreMadeOnlyWhenEmpty() async throws {
        let local = TemporaryDirectory(prefix: "implied")
        let sent = try local.write("one.bin", "x")
        let items = [
            folder("a"), file("a/f1"),
            folder("b"),
            folder("c"), folder("c/d"), folder("c/e"), file("c/e/f2"),
            folder("x"), file("x/fails"),
            folder("y"), folder("y/z"),
        ]
        let source = RecordingRemote(items: items, sendFile: sent)
        let destination = RecordingRemote(impliesFolders: true, uploadFails: ["x/fails"])
        let report = await engine(source, destination).run()
        #expect(Set(destination.foldersMade) == ["", "b", "c/d", "y/z"], "\(destination.foldersMade)")
        #expect(Set(destination.uploaded) == ["a/f1", "c/e/f2", "x/fails"])
        // a, b, c, c/d, c/e, y, y/z; not x.
        #expect(report.directoriesCreated == 7, "\(report)")
        #expect(report.transferred == 2 && report.failureCount == 1)

        // Made ahead of their files where folders are not implied.
        let plain = RecordingRemote()
        #expect(await engine(RecordingRemote(items: items, sendFile: sent), plain).run().directoriesCreated == 8)
        #expect(Set(plain.foldersMade) == ["", "a", "b", "c", "c/d", "c/e", "x", "y", "y/z"])
    }
}

extension SyncEngineBoundsTests {
    /// A side's limit caps that side alone: a destination that takes two sends at once does not hold the staged
    /// copy's fetches to two, and a source limit caps the fetches.
    @Test func eachSideKeepsItsOwnLimit() async throws {
        let local = TemporaryDirectory(prefix: "sides")
        let sent = try local.write("one.bin", "x")
        let items = (0..<60).map { file(String(format: "f%03d", $0)) }
        var options = SyncOptions(direction: .push)
        options.transfersPerSide.destination = 2
        let source = RecordingRemote(items: items, sendFile: sent, fetchesAFile: true, holdFetchesUntil: 11)
        let destination = RecordingRemote(holdUploadsUntil: 2)
        let report = await SyncEngine(
            source: source, destination: destination, stagingFolder: local.path + "/staging", options: options
        ).run()
        #expect(report.transferred == 60 && report.succeeded, "\(report)")
        #expect(destination.uploads.most == 2, "\(destination.uploads.most)")
        #expect(source.fetches.most > 10, "\(source.fetches.most)")

        options.transfersPerSide.destination = nil
        options.transfersPerSide.source = 3
        let limitedSource = RecordingRemote(items: items, sendFile: sent, fetchesAFile: true, holdFetchesUntil: 3)
        let open = RecordingRemote(holdUploadsUntil: 4)
        #expect(
            await SyncEngine(
                source: limitedSource, destination: open, stagingFolder: local.path + "/staging", options: options
            ).run().transferred == 60)
        #expect(limitedSource.fetches.most == 3, "\(limitedSource.fetches.most)")
        #expect(open.uploads.most > 3, "\(open.uploads.most)")
    }
}
