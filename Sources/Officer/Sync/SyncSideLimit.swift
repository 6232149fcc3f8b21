import Foundation

/// How many transfers one side of a sync takes at once (``SyncOptions/transfersPerSide``): a waiter queues in
/// order and is let in as a slot frees. A cancelled waiter leaves the queue and throws, so a stopped sync never
/// waits here.
final class SyncSideLimit: @unchecked Sendable {
    private let lock = NSLock()
    private let limit: Int
    private var running = 0
    private var waiting: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
    private var nextID: UInt64 = 0

    /// At most `limit` at once (at least one).
    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Runs `work` in a slot of its own.
    func run<T>(_ work: () async throws -> T) async throws -> T {
        try await acquire()
        defer { release() }
        return try await work()
    }

    private func acquire() async throws {
        let id = lock.withLock { () -> UInt64 in
            nextID += 1
            return nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Cancelled before it queued: the handler found nothing to drop, so it is refused here.
                let admitted = lock.withLock { () -> Bool? in
                    if Task.isCancelled { return false }
                    if running < limit, waiting.isEmpty {
                        running += 1
                        return true
                    }
                    waiting.append((id, continuation))
                    return nil
                }
                switch admitted {
                case true?: continuation.resume()
                case false?: continuation.resume(throwing: CancellationError())
                case nil: break
                }
            }
        } onCancel: {
            let dropped = lock.withLock { () -> CheckedContinuation<Void, any Error>? in
                guard let index = waiting.firstIndex(where: { $0.id == id }) else { return nil }
                return waiting.remove(at: index).continuation
            }
            dropped?.resume(throwing: CancellationError())
        }
    }

    private func release() {
        let next = lock.withLock { () -> CheckedContinuation<Void, any Error>? in
            guard !waiting.isEmpty else {
                running -= 1
                return nil
            }
            // The slot passes to the first waiter: `running` stays.
            return waiting.removeFirst().continuation
        }
        next?.resume()
    }
}
