import Foundation

/// A download or an upload under way: its ``TransferEvent``s, then its result (failing with any error: the
/// engines' own; the front door's operations fail with its one error type).
public typealias TransferOperation<Success: Sendable> = ProgressOperation<TransferEvent, Success, any Error>

/// One long operation under way: its events as an `AsyncSequence` and, when it ends, its value.
///
/// The work starts at once, in a task of its own. Iterate the operation (once) for its events; the sequence
/// ends when the work does. `value` waits for the outcome. Either consumer's end stops the work: cancelling the
/// task that awaits `value`, cancelling the task that iterates the events, leaving the loop over them early
/// (`break`, a thrown error), or calling ``cancel()`` (an upload then pauses: the server keeps what it has, and
/// the same call continues it later). An operation whose events are never iterated runs to its end. `value`
/// fails with `Failure`: the front door's operations with its one error type (`OfficerFilesError`, module
/// Officer), typed.
public final class ProgressOperation<Event: Sendable, Success: Sendable, Failure: Error>: AsyncSequence, Sendable {
    private let events: AsyncStream<Event>
    private let work: Task<Success, any Error>
    /// The work's failure as this operation's `Failure`.
    private let failure: @Sendable (any Error) -> Failure
    /// What its progress is thinned on, and its rate and time left measured on.
    package let clock: any Clock<Duration>

    /// Starts `body`, which reports through the function it is given. Progress events (`CoalescibleEvent`)
    /// are passed on at most every `ProgressGate/interval` per part, the latest one each time, and always
    /// before any other event and at the end: an engine may report every buffer it moves without a consumer
    /// paying for each (a GiB is tens of thousands of buffers).
    public convenience init(
        _ body: @escaping @Sendable (_ report: @escaping @Sendable (Event) -> Void) async throws -> Success
    ) where Failure == any Error {
        self.init(clock: ContinuousClock(), failure: { $0 }, body)
    }

    /// Starts `body`, its progress thinned, and its rate and time left measured, on `clock` (a test's manual one).
    package convenience init(
        clock: any Clock<Duration>,
        _ body: @escaping @Sendable (_ report: @escaping @Sendable (Event) -> Void) async throws -> Success
    ) where Failure == any Error {
        self.init(clock: clock, failure: { $0 }, body)
    }

    /// Starts `body`; what it throws becomes `Failure` through `failure`.
    package init(
        clock: any Clock<Duration>, failure: @escaping @Sendable (any Error) -> Failure,
        _ body: @escaping @Sendable (_ report: @escaping @Sendable (Event) -> Void) async throws -> Success
    ) {
        self.failure = failure
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(4096))
        events = stream
        self.clock = clock
        let gate = ProgressGate(continuation, clock: clock)
        // The work keeps its stream alive: an operation dropped while its `value` is awaited
        // (`try await files.download(…).value`) must not end the stream, which would cancel the work below.
        let work = Task { [stream] in
            defer {
                gate.finish()
                withExtendedLifetime(stream) {}
            }
            return try await body { gate.report($0) }
        }
        self.work = work
        // Either consumer's end stops the work: the task reading the events cancelled, as the one awaiting
        // `value` (there, by its cancellation handler).
        continuation.onTermination = { termination in
            if case .cancelled = termination { work.cancel() }
        }
    }

    /// The events; the sequence ends when the work does. An operation's events can be read once; dropping the
    /// iterator before their end (leaving the loop) stops the work.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: events.makeAsyncIterator(), reader: ConsumerEnd(work.cancel))
    }

    /// Reads the events; when the last copy of it goes before the sequence ended, the work is cancelled.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncStream<Event>.Iterator
        let reader: ConsumerEnd

        /// The next event, or nil when the work has ended.
        public mutating func next() async -> Event? {
            let event = await base.next()
            if event == nil { reader.reachedEnd() }
            return event
        }
    }

    /// The outcome. Cancelling the awaiting task cancels the work. Errors are each a `CategorizedError`; the
    /// front door's operations throw its one error type (`OfficerFilesError`, module Officer), typed.
    public var value: Success {
        get async throws(Failure) {
            let work = work
            let result = await withTaskCancellationHandler {
                await work.result
            } onCancel: {
                work.cancel()
            }
            switch result {
            case .success(let value): return value
            case .failure(let error): throw failure(error)
            }
        }
    }

    /// The same operation (its events, its work) failing as `Failure` through `transform`: how the front door
    /// types an engine's operation. The events are read through the operation returned, not this one.
    package func failing<Typed: Error>(as transform: @escaping @Sendable (any Error) -> Typed)
        -> ProgressOperation<Event, Success, Typed>
    {
        let own = failure
        return ProgressOperation<Event, Success, Typed>(
            events: events, work: work, clock: clock, failure: { transform(own($0)) })
    }

    private init(
        events: AsyncStream<Event>, work: Task<Success, any Error>, clock: any Clock<Duration>,
        failure: @escaping @Sendable (any Error) -> Failure
    ) {
        self.events = events
        self.work = work
        self.clock = clock
        self.failure = failure
    }

    /// Stops the work.
    public func cancel() { work.cancel() }
}

/// Calls `stop` when it is released before ``reachedEnd()``: a consumer that left early (an iterator dropped
/// by `break`) ends the work it was reading.
package final class ConsumerEnd: Sendable {
    private let ended = LockedValue(false)
    private let stop: @Sendable () -> Void

    package init(_ stop: @escaping @Sendable () -> Void) { self.stop = stop }

    /// The sequence ended by itself: nothing to stop.
    package func reachedEnd() { ended.withLock { $0 = true } }

    deinit {
        if !ended.current { stop() }
    }
}

/// An event that only updates a value a later event of the same key replaces (a part's byte count), so a
/// run of them may be thinned to the latest.
package protocol CoalescibleEvent: Sendable {
    /// What the event updates (a part's index); nil for an event that must always be delivered.
    var coalescingKey: Int? { get }
}

/// Thins a run of coalescible events to the latest per key every ``interval``, keeping the order of every
/// other event (pending updates go out before it). An update held back goes out once the interval has passed even
/// when nothing follows it (a burst, then a stall, ends showing the last count), by a flush task the gate owns
/// and cancels when it finishes.
final class ProgressGate<Event: Sendable>: Sendable {
    /// The shortest time between two updates of one key that are both passed on.
    static var interval: Duration { .milliseconds(50) }

    private struct State {
        var pending: [Int: Event] = [:]
        var lastSent: [Int: Duration] = [:]
        /// The trailing flush of what is held back, while one is due.
        var flush: Task<Void, Never>?
        var finished = false
    }

    private let continuation: AsyncStream<Event>.Continuation
    private let state = LockedValue(State())
    private let clock: any Clock<Duration>
    /// Time since the gate was made, on `clock`.
    private let reading: ClockReading

    init(_ continuation: AsyncStream<Event>.Continuation, clock: any Clock<Duration>) {
        self.continuation = continuation
        self.clock = clock
        reading = ClockReading(clock)
    }

    func report(_ event: Event) {
        let continuation = continuation
        guard let key = (event as? any CoalescibleEvent)?.coalescingKey else {
            state.withLock { state in
                Self.flushPending(&state, into: continuation)
                continuation.yield(event)
            }
            return
        }
        let now = reading.elapsed
        state.withLock { state in
            if let last = state.lastSent[key], now - last < Self.interval {
                state.pending[key] = event
                if state.flush == nil, !state.finished { state.flush = trailingFlush() }
                return
            }
            state.pending[key] = nil
            state.lastSent[key] = now
            continuation.yield(event)
        }
    }

    func finish() {
        state.withLock { state in
            state.finished = true
            state.flush?.cancel()
            state.flush = nil
            Self.flushPending(&state, into: continuation)
        }
        continuation.finish()
    }

    /// Sends what is held back once the interval has passed.
    private func trailingFlush() -> Task<Void, Never> {
        let clock = clock
        return Task { [weak self] in
            try? await clock.sleep(for: Self.interval)
            guard !Task.isCancelled, let self else { return }
            let now = self.reading.elapsed
            let continuation = self.continuation
            self.state.withLock { state in
                state.flush = nil
                for key in state.pending.keys { state.lastSent[key] = now }
                Self.flushPending(&state, into: continuation)
            }
        }
    }

    private static func flushPending(_ state: inout State, into continuation: AsyncStream<Event>.Continuation) {
        for key in state.pending.keys.sorted() { continuation.yield(state.pending[key]!) }
        state.pending.removeAll()
    }
}
