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
