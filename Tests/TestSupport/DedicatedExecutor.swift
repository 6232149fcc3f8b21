import Dispatch

/// A task executor on a serial dispatch queue of its own, outside Swift's cooperative pool: a test that must act
/// on a transfer's events while they come (pause after the first bytes) runs its loop here, so other tests
/// holding the pool's threads cannot delay it past the transfer's end.
public final class DedicatedExecutor: TaskExecutor, @unchecked Sendable {
    private let queue: DispatchQueue

    /// An executor on a new serial queue named `label`.
    public init(label: String = "officer-files.test-executor") {
        queue = DispatchQueue(label: label)
    }

    /// Runs the job on the queue's thread.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// Runs `operation` with this executor preferred for it and the tasks it starts.
    public func run<T: Sendable>(_ operation: @Sendable () async throws -> T) async rethrows -> T {
        try await withTaskExecutorPreference(self, operation: operation)
    }
}
