import Foundation

/// Turns what a transfer reports (bytes in place, the total, what was resumed, how it ended) into its
/// ``OperationProgress``: the one place rates, times left and the end state are computed. Thread-safe.
package final class ProgressMeter: @unchecked Sendable {
    private let lock = NSLock()
    private let clock: @Sendable () -> Double
    private let started: Double
    private var progress = OperationProgress()
    private var estimator: RateEstimator
    private var resumedFromFirstRecord = false

    /// A meter starting now; `clock` gives monotonic seconds.
    package init(window: Double = 5, clock: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime })
    {
        self.clock = clock
        started = clock()
        estimator = RateEstimator(window: window)
    }

    /// The plan: the total when known, bytes already in place (nil: whatever the first ``record(done:)``
    /// says, for a part of a file whose share of the resumed bytes is not known), files in the batch.
    package func begin(total: Int64?, resumed: Int64? = 0, files: Int = 1) {
        lock.withLock {
            progress.totalBytes = total
            resumedFromFirstRecord = resumed == nil
            let resumed = resumed ?? 0
            progress.resumedBytes = resumed
            progress.doneBytes = max(progress.doneBytes, resumed)
            progress.filesTotal = files
            // The resumed bytes are where this run's counting starts: they never show as speed.
            estimator = RateEstimator(window: estimator.window)
            estimator.record(bytes: 0, at: clock())
        }
    }

    /// The total, once known (a stream's length, a batch's files listed).
    package func setTotal(_ total: Int64?, files: Int? = nil) {
        lock.withLock {
            progress.totalBytes = total
            if let files { progress.filesTotal = files }
        }
    }

    /// More bytes found in place (a batch's next file was partly there): done and resumed alike, so the rate
    /// does not jump.
    package func addResumed(_ bytes: Int64) {
        guard bytes > 0 else { return }
        lock.withLock {
            progress.resumedBytes += bytes
            progress.doneBytes += bytes
        }
    }

    /// A transfer that starts over under a new count (a restarted download): its `done` bytes leave the totals,
    /// and the rate is measured afresh.
    package func discard(done: Int64) {
        lock.withLock {
            progress.doneBytes = max(0, progress.doneBytes - done)
            progress.resumedBytes = min(progress.resumedBytes, progress.doneBytes)
            estimator = RateEstimator(window: estimator.window)
            estimator.record(bytes: progress.movedBytes, at: clock())
            progress.bytesPerSecond = nil
        }
    }

    /// Bytes in place now (resumed ones included).
    package func record(done: Int64) {
        lock.withLock {
            if resumedFromFirstRecord {
                resumedFromFirstRecord = false
                progress.resumedBytes = done
            }
            progress.doneBytes = done
            estimator.record(bytes: max(0, done - progress.resumedBytes), at: clock())
            progress.bytesPerSecond = estimator.bytesPerSecond
        }
    }

    /// One file of the batch ended: done, or failed (or stopped).
    package func fileEnded(failed: Bool) {
        lock.withLock {
            if failed { progress.filesFailed += 1 } else { progress.filesDone += 1 }
        }
    }

    /// The work ended. A completed one has all its bytes (when the total is known); a failed or cancelled one
    /// keeps what it had, so nothing claims more than was moved.
    package func end(_ state: OperationProgress.State) {
        lock.withLock {
            progress.state = state
            if state == .completed, let total = progress.totalBytes {
                progress.doneBytes = max(progress.doneBytes, total)
            }
            progress.bytesPerSecond = nil
        }
    }

    /// How it stands now.
    package var snapshot: OperationProgress {
        lock.withLock {
            var current = progress
            current.elapsedSeconds = clock() - started
            return current
        }
    }
}
