import FileModel
import Foundation

/// A request body that arrives as it is made (a pipe): a producer appends, the transfer takes, and at most
/// ``limit`` bytes wait in memory between them. Its length is not known, so it goes chunked. A producer ahead of
/// the transfer is suspended until the transfer takes enough (back-pressure by suspension, never by polling).
package final class BodyStream: Sendable {
    private struct State {
        var buffer = Data()
        var offset = 0
        var finished = false
        var failure: String?
        /// The producer suspended while the buffer is full.
        var waiting: CheckedContinuation<Void, Never>?
        /// A reader suspended while the buffer is empty (``waitForBytes()``).
        var reader: CheckedContinuation<Void, Never>?
        /// Told when there is something to take (a reader that cannot suspend: libcurl's callback).
        var onReadable: (@Sendable () -> Void)?
        /// The transfer found nothing to take, more being due, since the last append.
        var starved = false
        /// Suspended in ``drained()`` until the transfer is starved.
        var drainWatchers: [CheckedContinuation<Void, Never>] = []

        func isFull(limit: Int) -> Bool { buffer.count - offset >= limit && failure == nil }
        /// Nothing to take yet, and more to come.
        var isEmpty: Bool { buffer.count == offset && !finished && failure == nil }
    }

    private let state = LockedValue(State())
    /// The most bytes held at once; a producer waits while more are.
    package let limit: Int

    /// An empty stream holding at most `limit` bytes at once.
    package init(limit: Int = 4 << 20) { self.limit = max(64 << 10, limit) }

    /// Adds bytes, suspended while the transfer has not taken enough of the earlier ones; a cancelled producer
    /// stops waiting (`CancellationError`).
    package func append(_ data: Data) async throws {
        let limit = limit
        while state.withLock({ $0.isFull(limit: limit) }) {
            try Task.checkCancellation()
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let waits = state.withLock { state in
                        guard state.isFull(limit: limit), !Task.isCancelled else { return false }
                        state.waiting = continuation
                        return true
                    }
                    if !waits { continuation.resume() }
                }
            } onCancel: {
                wakeProducer()
            }
        }
        state.withLock { state in
            if state.offset > 0 {
                state.buffer.removeFirst(state.offset)
                state.offset = 0
            }
            state.buffer.append(data)
            state.starved = false
        }
        wakeReader()
    }

    /// Suspends until the transfer has taken every byte appended so far and asked for more: where a producer's
    /// pause begins (a test that times one on a manual clock).
    package func drained() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let starved = state.withLock { state in
                if !state.starved { state.drainWatchers.append(continuation) }
                return state.starved
            }
            if starved { continuation.resume() }
        }
    }

    /// No more bytes will come: the body ends after those held.
    package func finish() {
        state.withLock { $0.finished = true }
        wakeReader()
    }

    /// The producer failed: the transfer stops with `reason`, so the server never takes a cut body for a whole one.
    package func fail(_ reason: String) {
        state.withLock { $0.failure = reason }
        wakeProducer()
        wakeReader()
    }

    /// Suspends the reader until there is something to take: bytes, the end, or a failure; a cancelled reader stops
    /// waiting (`CancellationError`). For a reader in Swift concurrency; libcurl's callback pauses instead.
    package func waitForBytes() async throws {
        while state.withLock({ $0.isEmpty }) {
            try Task.checkCancellation()
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let waits = state.withLock { state in
                        guard state.isEmpty, !Task.isCancelled else { return false }
                        state.reader = continuation
                        return true
                    }
                    if !waits { continuation.resume() }
                }
            } onCancel: {
                wakeReader()
            }
        }
    }

    /// What the transfer gets when it asks for bytes.
    package enum Take {
        case bytes(Int)
        case wait
        case end
        case failed(String)
    }

    /// Copies up to `into.count` held bytes (transfer side); a producer waiting for room goes on once there is.
    package func take(into target: UnsafeMutableRawBufferPointer) -> Take {
        let limit = limit
        let (take, woken) = state.withLock { state -> (Take, [CheckedContinuation<Void, Never>]) in
            if let failure = state.failure { return (.failed(failure), []) }
            let available = state.buffer.count - state.offset
            if available == 0, state.finished { return (.end, []) }
            if available == 0 {
                state.starved = true
                defer { state.drainWatchers = [] }
                return (.wait, state.drainWatchers)
            }
            let count = min(available, target.count)
            let offset = state.offset
            state.buffer.withUnsafeBytes { bytes in
                target.baseAddress!.copyMemory(from: bytes.baseAddress! + offset, byteCount: count)
            }
            state.offset += count
            guard !state.isFull(limit: limit) else { return (.bytes(count), []) }
            defer { state.waiting = nil }
            return (.bytes(count), state.waiting.map { [$0] } ?? [])
        }
        for continuation in woken { continuation.resume() }
        return take
    }

    /// Calls `body` whenever there is something new to take (bytes, the end, a failure), from the producer's
    /// thread: for a reader that cannot suspend (libcurl's read callback pauses, and is unpaused by it).
    package func onReadable(_ body: @escaping @Sendable () -> Void) { state.withLock { $0.onReadable = body } }

    private func wakeReader() {
        let (reader, told) = state.withLock { state in
            defer { state.reader = nil }
            return (state.reader, state.onReadable)
        }
        reader?.resume()
        told?()
    }

    private func wakeProducer() {
        state.withLock { state in
            defer { state.waiting = nil }
            return state.waiting
        }?.resume()
    }
}
