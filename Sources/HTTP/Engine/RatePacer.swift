import Foundation

/// A token bucket for `--bwlimit`, shared by the engines. libcurl's own limit averages over seconds and lets a
/// whole small file through at full speed; this paces every write, pausing the transfer until the bytes are due.
package struct RatePacer: Sendable {
    /// The pace.
    package let bytesPerSecond: Double
    private let capacity: Double
    private var tokens: Double
    private var last: Double

    /// A pacer for `bytesPerSecond`, its bucket empty at `now`.
    package init(bytesPerSecond: Int64, now: Double = ProcessInfo.processInfo.systemUptime) {
        self.bytesPerSecond = Double(max(1, bytesPerSecond))
        // A tenth of a second of burst, at least one curl buffer, so pacing stays smooth but cheap.
        capacity = max(self.bytesPerSecond / 10, 16_384)
        tokens = 0
        last = now
    }

    /// Takes `bytes` if they are due at `now`; otherwise returns the seconds to wait before offering them again.
    package mutating func admit(_ bytes: Int, now: Double = ProcessInfo.processInfo.systemUptime) -> Double? {
        tokens = min(capacity, tokens + (now - last) * bytesPerSecond)
        last = now
        // A chunk larger than the bucket is admitted once the bucket is full, then paid off as debt.
        let needed = min(Double(bytes), capacity)
        // Half a byte of slack: floating-point refills must not leave a chunk waiting for nothing.
        if tokens + 0.5 >= needed {
            tokens -= Double(bytes)
            return nil
        }
        return (needed - tokens) / bytesPerSecond
    }

    /// Charges `bytes` that have already moved at `now` (an engine that cannot hold them back, as URLSession's
    /// delegate is handed them); returns the seconds to stay paused until the debt is paid, 0 if none.
    package mutating func charge(_ bytes: Int, now: Double = ProcessInfo.processInfo.systemUptime) -> Double {
        tokens = min(capacity, tokens + (now - last) * bytesPerSecond)
        last = now
        tokens -= Double(bytes)
        return tokens < 0 ? -tokens / bytesPerSecond : 0
    }
}
