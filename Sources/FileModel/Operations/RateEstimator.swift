/// Transfer rate over a sliding window, so a stall shows as a falling rate rather than the lifetime average.
package struct RateEstimator: Sendable {
    private var samples: [(time: Double, bytes: Int64)] = []
    /// The window in seconds.
    package let window: Double

    /// Creates an estimator averaging over `window` seconds.
    package init(window: Double = 5) { self.window = window }

    /// Records that `bytes` were done in total at `time` (seconds, monotonic).
    package mutating func record(bytes: Int64, at time: Double) {
        samples.append((time, bytes))
        // Keep one sample older than the window so the rate spans the whole window.
        while samples.count > 2, time - samples[1].time >= window { samples.removeFirst() }
    }

    /// Bytes per second over the window; nil until two samples at least 0.1 s apart exist.
    package var bytesPerSecond: Double? {
        guard let first = samples.first, let last = samples.last, last.time - first.time >= 0.1 else { return nil }
        return max(0, Double(last.bytes - first.bytes) / (last.time - first.time))
    }
}
