/// The state of one transfer as the progress display sees it.
package struct ProgressItem: Sendable, Equatable {
    /// Stable identifier.
    package var id: Int
    /// Shown name (usually the file name).
    package var name: String
    /// Bytes done.
    package var done: Int64
    /// Bytes in all, when known.
    package var total: Int64?
    /// Current rate in bytes per second, when known.
    package var rate: Double?
    /// Finished (successfully or not).
    package var finished = false
    /// Failed.
    package var failed = false

    /// Creates an item.
    package init(id: Int, name: String, done: Int64 = 0, total: Int64? = nil, rate: Double? = nil) {
        self.id = id
        self.name = name
        self.done = done
        self.total = total
        self.rate = rate
    }

    /// Percent done (0–100), when the total is known.
    package var percent: Int? {
        guard let total else { return nil }
        return total == 0 ? 100 : Int(min(100, Double(done) * 100 / Double(total)))
    }

    /// Seconds left at the current rate, when both are known.
    package var secondsLeft: Double? {
        guard let total, let rate, rate > 0 else { return nil }
        return Double(max(0, total - done)) / rate
    }
}
