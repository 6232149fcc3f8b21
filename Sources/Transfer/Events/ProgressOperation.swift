/// A download or an upload under way: its ``TransferEvent``s, then its result.
public typealias TransferOperation<Success: Sendable> = ProgressOperation<TransferEvent, Success>

/// One long operation under way: its events as an `AsyncSequence` and, when it ends, its value.
///
/// The work starts at once, in a task of its own. Iterate the operation (once) for its events; the sequence
/// ends when the work does. `value` waits for the outcome; cancelling the task that awaits it, or calling
/// ``cancel()``, stops the work (an upload then pauses: the server keeps what it has, and the same call
/// continues it later).
public final class ProgressOperation<Event: Sendable, Success: Sendable>: AsyncSequence, Sendable {
    /// The events, in order.
    public typealias Element = Event

    private let events: AsyncStream<Event>
    private let work: Task<Success, any Error>

    /// Starts `body`, which reports through the function it is given.
    public init(_ body: @escaping @Sendable (_ report: @escaping @Sendable (Event) -> Void) async throws -> Success) {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(4096))
        events = stream
        work = Task {
            defer { continuation.finish() }
            return try await body { continuation.yield($0) }
        }
    }

    /// The events; the sequence ends when the work does. An operation's events can be read once.
    public func makeAsyncIterator() -> AsyncStream<Event>.Iterator { events.makeAsyncIterator() }

    /// The outcome. Cancelling the awaiting task cancels the work. Errors are the library's typed errors, each
    /// a `CategorizedError`.
    public var value: Success {
        get async throws {
            let work = work
            return try await withTaskCancellationHandler { try await work.value } onCancel: { work.cancel() }
        }
    }

    /// Stops the work.
    public func cancel() { work.cancel() }
}
