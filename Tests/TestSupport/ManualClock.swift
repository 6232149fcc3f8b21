import FileModel
import Foundation

/// A clock that moves only when a test moves it: what the engines read time from (`any Clock<Duration>`) in
/// tests, so a backoff, a `Retry-After` or a poll interval is checked without waiting for it. A sleeper stays
/// suspended until ``advance(by:)`` passes its deadline, or its task is cancelled (`CancellationError`); a test
/// learns that an engine is waiting, and until when, from ``nextSleep()``.
public final class ManualClock: Clock, Sendable {
    /// A point on this clock: the time advanced since it was made.
    public struct Instant: InstantProtocol, Hashable, Sendable {
        /// Time since the clock was made.
        public var offset: Duration

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        /// Earlier than.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        var id: UInt64
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Sleeper] = []
        var nextID: UInt64 = 0
        /// Sleeps begun that no ``nextSleep()`` took yet, and the callers waiting for one.
        var begun: [Instant] = []
        var watchers: [CheckedContinuation<Instant, Never>] = []
    }

    private let state = LockedValue(State())

    /// A clock at its zero.
    public init() {}

    /// Where the clock stands.
    public var now: Instant { state.withLock { $0.now } }
    /// Any duration can be advanced by.
    public var minimumResolution: Duration { .zero }

    /// Suspends until the clock is advanced to `deadline`, or the task is cancelled (`CancellationError`).
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (resumeNow, watcher) = state.withLock { state -> (Bool, CheckedContinuation<Instant, Never>?) in
                    if Task.isCancelled || deadline <= state.now { return (true, nil) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    guard !state.watchers.isEmpty else {
                        state.begun.append(deadline)
                        return (false, nil)
                    }
                    return (false, state.watchers.removeFirst())
                }
                watcher?.resume(returning: deadline)
                if resumeNow {
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        continuation.resume()
                    }
                }
            }
        } onCancel: {
            let cancelled = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock on, waking every sleeper whose deadline it passes.
    public func advance(by duration: Duration) {
        let woken = state.withLock { state -> [Sleeper] in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }

    /// The deadline of the next sleep begun on this clock: one begun and not taken yet, else the next to begin.
    public func nextSleep() async -> Instant {
        await withCheckedContinuation { (continuation: CheckedContinuation<Instant, Never>) in
            let begun = state.withLock { state -> Instant? in
                guard state.begun.isEmpty else { return state.begun.removeFirst() }
                state.watchers.append(continuation)
                return nil
            }
            if let begun { continuation.resume(returning: begun) }
        }
    }
}
