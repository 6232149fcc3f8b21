import Foundation

/// A transfer's ``TransferUpdate``s as an app reads them (``ProgressOperation/progress()``): in order, ending with
/// the update that gives the end state. Unlike a plain stream, a reader whose task is cancelled is not cut off:
/// the work is cancelled and the reader gets what is left up to that final update, so a view shows how the
/// transfer stopped instead of its last running state.
public struct TransferUpdates: AsyncSequence, Sendable {
    let channel: UpdateChannel<TransferUpdate>
    let stop: @Sendable () -> Void

    /// The updates; read once. Dropping the iterator before the end (leaving the loop) cancels the work.
    public func makeAsyncIterator() -> Iterator {
        Iterator(channel: channel, stop: stop, reader: ConsumerEnd(stop))
    }

    /// Reads the updates.
    public struct Iterator: AsyncIteratorProtocol {
        let channel: UpdateChannel<TransferUpdate>
        let stop: @Sendable () -> Void
        let reader: ConsumerEnd

        /// The next update, or nil after the final one. Cancelling the reading task cancels the work and keeps
        /// reading to the final update.
        public mutating func next() async -> TransferUpdate? {
            let stop = stop
            let update = await withTaskCancellationHandler {
                await channel.receive()
            } onCancel: {
                stop()
            }
            if update == nil { reader.reachedEnd() }
            return update
        }
    }
}

/// A one-reader queue that, unlike `AsyncStream`, keeps delivering to a reader whose task was cancelled (the
/// final update must reach it). Holds at most `limit` values; beyond it the oldest ones go, never the last.
final class UpdateChannel<Value: Sendable>: Sendable {
    private struct Queue {
        var buffer: [Value] = []
        var finished = false
        var waiter: CheckedContinuation<Value?, Never>?
    }
    private let limit: Int
    private let queue = LockedValue(Queue())

    init(limit: Int) { self.limit = limit }

    /// Queues `value`; `last` ends the sequence after it.
    func send(_ value: Value, last: Bool = false) {
        let waiter = queue.withLock { queue -> CheckedContinuation<Value?, Never>? in
            guard !queue.finished else { return nil }
            queue.finished = last
            if let waiter = queue.waiter {
                queue.waiter = nil
                return waiter
            }
            queue.buffer.append(value)
            if queue.buffer.count > limit { queue.buffer.removeFirst(queue.buffer.count - limit) }
            return nil
        }
        waiter?.resume(returning: value)
    }

    /// The next value, or nil once the last one was taken.
    func receive() async -> Value? {
        await withCheckedContinuation { continuation in
            // Taken under the lock, resumed outside it.
            let ready = queue.withLock { queue -> Value?? in
                if !queue.buffer.isEmpty { return .some(queue.buffer.removeFirst()) }
                if queue.finished { return .some(nil) }
                queue.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
