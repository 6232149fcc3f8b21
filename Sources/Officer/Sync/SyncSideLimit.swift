import FileModel
import Foundation

/// How many transfers one side of a sync takes at once (``SyncOptions/transfersPerSide``): a waiter queues in
/// order and is let in as a slot frees. A cancelled waiter leaves the queue and throws, so a stopped sync never
/// waits here.
final class SyncSideLimit: Sendable {
    private struct Slots {
        var running = 0
        var waiting: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
        var nextID: UInt64 = 0
    }
    private let limit: Int
    private let slots = LockedValue(Slots())

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
        let id = slots.withLock { slots -> UInt64 in
            slots.nextID += 1
            return slots.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Cancelled before it queued: the handler found nothing to drop, so it is refused here.
                let admitted = slots.withLock { slots -> Bool? in
                    if Task.isCancelled { return false }
                    if slots.running < limit, slots.waiting.isEmpty {
                        slots.running += 1
                        return true
                    }
                    slots.waiting.append((id, continuation))
                    return nil
                }
                switch admitted {
                case true?: continuation.resume()
                case false?: continuation.resume(throwing: CancellationError())
                case nil: break
                }
            }
        } onCancel: {
            let dropped = slots.withLock { slots -> CheckedContinuation<Void, any Error>? in
                guard let index = slots.waiting.firstIndex(where: { $0.id == id }) else { return nil }
                return slots.waiting.remove(at: index).continuation
            }
            dropped?.resume(throwing: CancellationError())
        }
    }

    private func release() {
        let next = slots.withLock { slots -> CheckedContinuation<Void, any Error>? in
            guard !slots.waiting.isEmpty else {
                slots.running -= 1
                return nil
            }
            // The slot passes to the first waiter: `running` stays.
            return slots.waiting.removeFirst().continuation
        }
        next?.resume()
    }
}
