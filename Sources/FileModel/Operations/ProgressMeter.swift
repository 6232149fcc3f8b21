import Foundation

/// Turns what a transfer reports (bytes in place, the total, what was resumed, how it ended) into its
/// ``OperationProgress``: the one place rates, times left and the end state are computed. Thread-safe.
package final class ProgressMeter: Sendable {
    private struct Reading {
        var progress = OperationProgress()
        var estimator: RateEstimator
        var resumedFromFirstRecord = false
    }
    private let clock: @Sendable () -> Double
    private let started: Double
    private let reading: LockedValue<Reading>

    /// A meter starting now; `clock` gives monotonic seconds.
    package init(window: Double = 5, clock: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime })
    {
        self.clock = clock
        started = clock()
        reading = LockedValue(Reading(estimator: RateEstimator(window: window)))
    }

    /// The plan: the total when known, bytes already in place (nil: whatever the first ``record(done:)``
    /// says, for a part of a file whose share of the resumed bytes is not known), files in the batch.
    package func begin(total: Int64?, resumed: Int64? = 0, files: Int = 1) {
        reading.withLock { meter in
            meter.progress.totalBytes = total
            meter.resumedFromFirstRecord = resumed == nil
            let resumed = resumed ?? 0
            meter.progress.resumedBytes = resumed
            meter.progress.doneBytes = max(meter.progress.doneBytes, resumed)
            meter.progress.filesTotal = files
            // The resumed bytes are where this run's counting starts: they never show as speed.
            meter.estimator = RateEstimator(window: meter.estimator.window)
            meter.estimator.record(bytes: 0, at: clock())
        }
    }

    /// The total, once known (a stream's length, a batch's files listed).
    package func setTotal(_ total: Int64?, files: Int? = nil) {
        reading.withLock { meter in
            meter.progress.totalBytes = total
            if let files { meter.progress.filesTotal = files }
        }
    }

    /// More bytes found in place (a batch's next file was partly there): done and resumed alike, so the rate
    /// does not jump.
    package func addResumed(_ bytes: Int64) {
        guard bytes > 0 else { return }
        reading.withLock { meter in
            meter.progress.resumedBytes += bytes
            meter.progress.doneBytes += bytes
        }
    }

    /// A transfer that starts over under a new count (a restarted download): its `done` bytes leave the totals,
    /// and the rate is measured afresh.
    package func discard(done: Int64) {
        reading.withLock { meter in
            meter.progress.doneBytes = max(0, meter.progress.doneBytes - done)
            meter.progress.resumedBytes = min(meter.progress.resumedBytes, meter.progress.doneBytes)
            meter.estimator = RateEstimator(window: meter.estimator.window)
            meter.estimator.record(bytes: meter.progress.movedBytes, at: clock())
            meter.progress.bytesPerSecond = nil
        }
    }

    /// Bytes in place now (resumed ones included).
    package func record(done: Int64) {
        reading.withLock { meter in
            if meter.resumedFromFirstRecord {
                meter.resumedFromFirstRecord = false
                meter.progress.resumedBytes = done
            }
            meter.progress.doneBytes = done
            meter.estimator.record(bytes: max(0, done - meter.progress.resumedBytes), at: clock())
            meter.progress.bytesPerSecond = meter.estimator.bytesPerSecond
        }
    }

    /// One file of the batch ended: done, or failed (or stopped).
    package func fileEnded(failed: Bool) {
        reading.withLock { meter in
            if failed { meter.progress.filesFailed += 1 } else { meter.progress.filesDone += 1 }
        }
    }

    /// A state on the way (``OperationProgress/State/verifying``): the counts stay as they are.
    package func setState(_ state: OperationProgress.State) {
        reading.withLock { $0.progress.state = state }
    }

    /// The work ended. A completed one has all its bytes (when the total is known); a failed or cancelled one
    /// keeps what it had, so nothing claims more than was moved.
    package func end(_ state: OperationProgress.State) {
        reading.withLock { meter in
            meter.progress.state = state
            if state == .completed, let total = meter.progress.totalBytes {
                meter.progress.doneBytes = max(meter.progress.doneBytes, total)
            }
            meter.progress.bytesPerSecond = nil
        }
    }

    /// How it stands now.
    package var snapshot: OperationProgress {
        reading.withLock { meter in
            var current = meter.progress
            current.elapsedSeconds = clock() - started
            return current
        }
    }
}
