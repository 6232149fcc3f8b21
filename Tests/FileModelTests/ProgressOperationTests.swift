import FileModel
import Foundation
import TestSupport
import Testing

#if canImport(Observation)
    import Observation
#endif

/// A moment one task announces and others await: the tests wait for events, never for time.
final class Signal: Sendable {
    private struct State {
        var fired = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }
    private let state = LockedValue(State())

    /// Announces it: every waiter goes on, and later ones do not wait.
    func fire() {
        let waiters = state.withLock { state in
            state.fired = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once it was announced.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let fired = state.withLock { state in
                if !state.fired { state.waiters.append(continuation) }
                return state.fired
            }
            if fired { continuation.resume() }
        }
    }

    /// Whether it was announced.
    var isSet: Bool { state.withLock { $0.fired } }

    /// Suspends until the calling task is cancelled.
    static func untilCancelled() async {
        let cancelled = Signal()
        await withTaskCancellationHandler {
            await cancelled.wait()
        } onCancel: {
            cancelled.fire()
        }
    }
}

/// An operation stops when either of its consumers ends: the task awaiting its value or the one reading its
/// events; dropping the operation while its value is awaited does not stop it.
@Suite struct ProgressOperationTests {
    /// Work that reports three steps, says it is under way, then runs until it is cancelled (and says so).
    static func endless(_ seen: Signal, started: Signal = Signal()) -> TransferOperation<Int> {
        TransferOperation { report in
            for done in 1...3 { report(.progress(part: 0, done: Int64(done))) }
            started.fire()
            await Signal.untilCancelled()
            seen.fire()
            throw CancellationError()
        }
    }

    @Test func cancellingTheTaskThatReadsTheEventsStopsTheWork() async throws {
        let (seen, started) = (Signal(), Signal())
        let operation = Self.endless(seen, started: started)
        let reader = Task {
            var count = 0
            for await _ in operation { count += 1 }
            return count
        }
        await started.wait()
        reader.cancel()
        _ = await reader.value
        await #expect(throws: CancellationError.self) { _ = try await operation.value }
        #expect(seen.isSet, "the work saw the cancellation")
    }

    @Test func cancellingTheTaskThatAwaitsTheValueStopsTheWork() async throws {
        let (seen, started) = (Signal(), Signal())
        let operation = Self.endless(seen, started: started)
        let waiter = Task { try await operation.value }
        await started.wait()
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
                    await Task.yield()
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
        let seen = Signal()
        let operation = ProgressOperationTests.endless(seen)
        // Progress is thinned to the latest per interval: the first event is what a burst is sure to show.
        for await event in operation {
            if case .progress = event { break }
        }
        await #expect(throws: CancellationError.self) { _ = try await operation.value }
        #expect(seen.isSet, "the work saw the cancellation")
    }

    /// A burst of progress thinned to its first, then a stall: the last count still arrives, once the interval has
    /// passed, without waiting for another event or the end (it did not: the work here never reports again).
    @Test(.timeLimit(.minutes(30))) func aBurstThenAStallEndsShowingTheLastCount() async throws {
        let seen = Signal()
        let operation = ProgressOperationTests.endless(seen)
        var counts: [Int64] = []
        for await event in operation {
            guard case .progress(_, let done) = event else { continue }
            counts.append(done)
            if done == 3 { break }
        }
        #expect(counts.last == 3, "\(counts)")
        await #expect(throws: CancellationError.self) { _ = try await operation.value }
    }

    /// Updates closer than the gate's interval on the operation's clock are held back, the latest going out
    /// once the clock passes the interval: a manual clock shows it without waiting 50 ms.
    @Test func progressIsThinnedOnTheOperationsClock() async throws {
        let clock = ManualClock()
        let (ending, end) = AsyncStream.makeStream(of: Void.self)
        let operation = TransferOperation<Int>(clock: clock) { report in
            for done in 1...3 { report(.progress(part: 0, done: Int64(done))) }
            for await _ in ending {}
            return 3
        }
        var counts: [Int64] = []
        for await event in operation {
            guard case .progress(_, let done) = event else { continue }
            counts.append(done)
            if done == 1 {
                let flushAt = await clock.nextSleep()
                #expect(counts == [1], "nothing more before the interval passed")
                clock.advance(by: clock.now.duration(to: flushAt))
            }
            if done == 3 { end.finish() }
        }
        #expect(counts == [1, 3], "the held update, the latest of two, once the clock passed the interval")
        #expect(try await operation.value == 3)
    }

    /// Rate and time left are measured on the operation's clock: a manual one moved by two seconds while 2 MiB
    /// of 8 went says 1 MiB/s and six seconds left, with no time passing.
    @Test func rateAndTimeLeftAreOnTheOperationsClock() async throws {
        let clock = ManualClock()
        let (steps, step) = AsyncStream.makeStream(of: Void.self)
        let operation = TransferOperation<Int>(clock: clock) { report in
            report(.started(total: 8 << 20, partSizes: [8 << 20], resumedBytes: 0, method: .ranges))
            var iterator = steps.makeAsyncIterator()
            await iterator.next()
            report(.progress(part: 0, done: 2 << 20))
            await iterator.next()
            return 1
        }
        var rate: Double?
        var left: Double?
        for await update in operation.progress() {
            if case .started = update.event {
                clock.advance(by: .seconds(2))
                step.yield()
            }
            if case .progress = update.event {
                rate = update.progress.bytesPerSecond
                left = update.progress.secondsLeft
                step.yield()
            }
        }
        #expect(rate.map { abs($0 - Double(1 << 20)) < 1 } == true, "\(String(describing: rate))")
        #expect(left.map { abs($0 - 6) < 0.01 } == true, "\(String(describing: left))")
    }

    @Test func breakingOutOfProgressStopsTheWork() async throws {
        let seen = Signal()
        let operation = ProgressOperationTests.endless(seen)
        for await update in operation.progress() where update.progress.doneBytes >= 1 { break }
        await #expect(throws: CancellationError.self) { _ = try await operation.value }
        #expect(seen.isSet)
    }

    @Test func aCancelledProgressReaderGetsTheFinalState() async throws {
        let (seen, started) = (Signal(), Signal())
        let operation = ProgressOperationTests.endless(seen, started: started)
        let updates = operation.progress()
        let reader = Task {
            var last: TransferUpdate?
            for await update in updates { last = update }
            return last
        }
        await started.wait()
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
            let seen = Signal()
            let operation = ProgressOperationTests.endless(seen)
            let model = TransferModel(operation)
            await until { model.progress.doneBytes >= 1 }
            #expect(!model.isFinished)
            model.cancel()
            await until { model.isFinished }
            #expect(model.progress.state == .cancelled && seen.isSet)
            await until { model.failure != nil }
            #expect(model.failure is CancellationError)
        }

        /// Verifying the last bytes is not the end: the model is finished only when the work says how it ended
        /// (an app's "done" showed while the bytes were still being checked).
        @MainActor @Test func verifyingIsNotFinished() async throws {
            let (steps, step) = AsyncStream.makeStream(of: Void.self)
            let operation = TransferOperation<Int> { report in
                report(.started(total: 10, partSizes: [10], resumedBytes: 0, method: .ranges))
                report(.verifying)
                for await _ in steps {}
                return 1
            }
            let model = TransferModel(operation)
            await until { model.progress.state == .verifying }
            #expect(!model.isFinished)
            step.finish()
            await until { model.isFinished }
            #expect(model.progress.state == .completed)
        }

        /// Returns once `condition` holds, re-checked on each change the observation reports (no polling).
        @MainActor func until(_ condition: @escaping @MainActor () -> Bool) async {
            while !condition() {
                let changed = Signal()
                let holds = withObservationTracking {
                    condition()
                } onChange: {
                    changed.fire()
                }
                if holds { return }
                await changed.wait()
            }
        }
    }
#endif
