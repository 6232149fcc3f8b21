/// The state of one transfer as the progress display sees it.
public struct ProgressItem: Sendable, Equatable {
    /// Stable identifier.
    public var id: Int
    /// Shown name (usually the file name).
    public var name: String
    /// Bytes done.
    public var done: Int64
    /// Bytes in all, when known.
    public var total: Int64?
    /// Current rate in bytes per second, when known.
    public var rate: Double?
    /// Finished (successfully or not).
    public var finished = false
    /// Failed.
    public var failed = false

    /// Creates an item.
    public init(id: Int, name: String, done: Int64 = 0, total: Int64? = nil, rate: Double? = nil) {
        self.id = id
        self.name = name
        self.done = done
        self.total = total
        self.rate = rate
    }

    /// Percent done (0–100), when the total is known.
    public var percent: Int? {
        guard let total else { return nil }
        return total == 0 ? 100 : Int(min(100, Double(done) * 100 / Double(total)))
    }

    /// Seconds left at the current rate, when both are known.
    public var secondsLeft: Double? {
        guard let total, let rate, rate > 0 else { return nil }
        return Double(max(0, total - done)) / rate
    }
}
