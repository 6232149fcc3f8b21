import FileModel
import Foundation
import Testing

/// An operation stops when either of its consumers ends: the task awaiting its value or the one reading its
/// events; dropping the operation while its value is awaited does not stop it.
@Suite struct ProgressOperationTests {
    /// Set once, read from any thread.
    final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var cancelled = false
        func set() { lock.withLock { cancelled = true } }
        var isSet: Bool { lock.withLock { cancelled } }
    }

    /// Work that reports progress until it is cancelled (then says so), for at most ten minutes.
    static func endless(_ seen: Seen) -> TransferOperation<Int> {
        TransferOperation { report in
            var done: Int64 = 0
            for _ in 0..<60_000 {
                if Task.isCancelled {
                    seen.set()
                    throw CancellationError()
                }
                done += 1
                report(.progress(part: 0, done: done))
                try? await Task.sleep(nanoseconds: 10_000_000)
            }
            return 0
        }
    }

    @Test func cancellingTheTaskThatReadsTheEventsStopsTheWork() async throws {
        let seen = Seen()
        let operation = Self.endless(seen)
        let reader = Task {
            var count = 0
            for await _ in operation { count += 1 }
            return count
        }
        try await Task.sleep(nanoseconds: 100_000_000)
        reader.cancel()
        _ = await reader.value
        await #expect(throws: CancellationError.self) { _ = try await operation.value }
        #expect(seen.isSet, "the work saw the cancellation")
    }

    @Test func cancellingTheTaskThatAwaitsTheValueStopsTheWork() async throws {
        let seen = Seen()
        let operation = Self.endless(seen)
        let waiter = Task { try await operation.value }
        try await Task.sleep(nanoseconds: 100_000_000)
        waiter.cancel()
        await #expect(throws: CancellationError.self) { _ = try await waiter.value }
        for await _ in operation {}  // ends when the work does
        #expect(seen.isSet)
    }

    @Test func anOperationDroppedWhileItsValueIsAwaitedFinishes() async throws {
        func start() -> TransferOperation<Int> {
            TransferOperation { report in
                for step in 1...20 {
                    report(.progress(part: 0, done: Int64(step)))
                    try await Task.sleep(nanoseconds: 5_000_000)
                }
                return 42
            }
        }
        #expect(try await start().value == 42)
    }
}

/// Leaving a loop early is a consumer's end too, and a cancelled progress reader is told how the work stopped.
@Suite struct ProgressConsumerEndTests {
    @Test func breakingOutOfTheEventsStopsTheWork() async throws {
        let seen = ProgressOperationTests.Seen()
        let operation = ProgressOperationTests.endless(seen)
        for await event in operation {
            if case .progress(_, let done) = event, done >= 3 { break }
        }
        await #expect(throws: CancellationError.self) { _ = try await operation.value }
        #expect(seen.isSet, "the work saw the cancellation")
    }

    @Test func breakingOutOfProgressStopsTheWork() async throws {
        let seen = ProgressOperationTests.Seen()
        let operation = ProgressOperationTests.endless(seen)
        for await update in operation.progress() where update.progress.doneBytes >= 3 { break }
        await #expect(throws: CancellationError.self) { _ = try await operation.value }
        #expect(seen.isSet)
    }

    @Test func aCancelledProgressReaderGetsTheFinalState() async throws {
        let seen = ProgressOperationTests.Seen()
        let operation = ProgressOperationTests.endless(seen)
        let updates = operation.progress()
        let reader = Task {
            var last: TransferUpdate?
            for await update in updates { last = update }
            return last
        }
        try await Task.sleep(nanoseconds: 100_000_000)
        reader.cancel()
        let last = try #require(await reader.value)
        #expect(last.event == nil, "the last update is the end's")
        #expect(last.progress.state == .cancelled)
        #expect(seen.isSet)
    }

    @Test func aFinishedOperationIsNotCancelledWhenItsIteratorGoes() async throws {
        let operation = TransferOperation<Int> { report in
            report(.progress(part: 0, done: 1))
            return 7
        }
        var updates: [TransferUpdate] = []
        for await update in operation.progress() { updates.append(update) }
        #expect(updates.last?.progress.state == .completed)
        #expect(try await operation.value == 7)
    }
}

/// What the tracker makes of a plan: resumed shares at once, a restart from nothing.
@Suite struct TransferTrackerTests {
    @Test func aResumedPlanOfSeveralPartsShowsItsResumedBytesFromTheStart() {
        let tracker = TransferTracker(clock: { 0 })
        let start = tracker.apply(
            .started(
                total: 400, partSizes: [100, 100, 100, 100], resumedBytes: 160, method: .ranges,
                partsResumed: [100, 40, 20, 0]))
        #expect(start.doneBytes == 160 && start.resumedBytes == 160 && start.fraction == 0.4)
        // Part 0 was complete and never reports; part 3 moves 10 bytes of this run.
        let later = tracker.apply(.progress(part: 3, done: 10))
        #expect(later.doneBytes == 170 && later.movedBytes == 10)
    }

    @Test func aRestartCountsNothingAsResumed() {
        let tracker = TransferTracker(clock: { 0 })
        tracker.apply(.started(total: 200, partSizes: [100, 100], resumedBytes: 0, method: .ranges))
        tracker.apply(.progress(part: 0, done: 50))
        tracker.apply(.restarted(reason: "changed"))
        let after = tracker.apply(.progress(part: 0, done: 30))
        #expect(after.doneBytes == 30 && after.resumedBytes == 0)
    }

    @Test func aPausedUploadEndsPaused() {
        let tracker = TransferTracker(clock: { 0 })
        tracker.apply(.started(total: 100, partSizes: [100], resumedBytes: 0, method: .tus))
        tracker.apply(.progress(part: 0, done: 40))
        tracker.apply(.paused(confirmed: 40, total: 100))
        #expect(tracker.end(.failure(CancellationError())).state == .paused)
    }
}

#if canImport(Observation)
    /// The model an app's view binds to follows the operation to its end, and its cancel stops the work.
    @Suite struct TransferModelTests {
        @MainActor @Test func followsTheOperationAndCancels() async throws {
            let seen = ProgressOperationTests.Seen()
            let operation = ProgressOperationTests.endless(seen)
            let model = TransferModel(operation)
            while model.progress.doneBytes < 3 { try await Task.sleep(nanoseconds: 10_000_000) }
            #expect(!model.isFinished)
            model.cancel()
            while !model.isFinished { try await Task.sleep(nanoseconds: 10_000_000) }
            #expect(model.progress.state == .cancelled && seen.isSet)
            while model.failure == nil { try await Task.sleep(nanoseconds: 10_000_000) }
            #expect(model.failure is CancellationError)
        }
    }
#endif
