import FileModel
import Foundation
import Testing

@testable import Preview

/// Blocking work on threads of its own, in order, stopped by its caller's cancellation. No sleeps: the work
/// blocks on a semaphore the test opens, and the test awaits the work's own signal.
@Suite(.timeLimit(.minutes(30))) struct ParallelRunnerTests {
    @Test func outputsKeepTheInputsOrder() async throws {
        let outputs = try await ParallelRunner.map(Array(0..<200), width: 4) { $0 * 2 }
        #expect(outputs == (0..<200).map { $0 * 2 })
    }

    @Test func cancellingTheCallerStartsNoMoreInputs() async throws {
        let started = LockedValue(0)
        let gate = DispatchSemaphore(value: 0)
        let (running, reached) = AsyncStream.makeStream(of: Void.self)
        let work = Task {
            try await ParallelRunner.map(Array(0..<1000), width: 2) { index in
                started.withLock { $0 += 1 }
                if index < 2 {
                    reached.yield()
                    gate.wait()
                }
                return index
            }
        }
        var iterator = running.makeAsyncIterator()
        _ = await iterator.next()  // the first input is under way
        work.cancel()
        gate.signal()
        gate.signal()
        await #expect(throws: CancellationError.self) { _ = try await work.value }
        #expect(started.current <= 2, "\(started.current) inputs started")
    }
}
