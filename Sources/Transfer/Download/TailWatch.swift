/// When what is left of a download would take about one round trip at the rate seen last: the moment a question
/// for the server's version can go out so that its answer comes back with the last bytes instead of a round trip
/// after them.
///
/// The round trip is read from the download itself: the time its first byte took (a request, the server's answer
/// and, on a new connection, the connect too: an estimate that is long rather than short, which only sends the
/// question a little early). The rate is measured over windows of at least that round trip, the first one left out:
/// what arrives at once after the first byte (the socket's buffers, a rate limit's allowance for the wait) is no rate,
/// and taken for one it sent the question seconds early. A value: observations in, one "now" out; no clock inside.
struct TailWatch: Sendable {
    /// No rate is measured over less (a window of one write says nothing).
    static let shortestWindow = 0.01

    private var firstByte: (seconds: Double, received: Int64)?
    /// Where the window under way began.
    private var window: (seconds: Double, received: Int64)?
    /// Windows measured so far, the first one included.
    private var windows = 0
    /// Bytes a second over the last window (not the first).
    private var rate: Double?
    /// Whether the moment was told (it is told once).
    private(set) var reached = false

    /// A watch that has seen nothing.
    init() {}

    /// Takes one observation, `seconds` after the requests went out: `received` bytes arrived in this run and
    /// `remaining` are still to come. True once, the first time the rest would take a round trip or less.
    mutating func observe(remaining: Int64, received: Int64, at seconds: Double) -> Bool {
        guard !reached else { return false }
        if remaining <= 0 {
            reached = true
            return true
        }
        guard received > 0 else { return false }
        guard let firstByte else {
            firstByte = (seconds, received)
            window = (seconds, received)
            return false
        }
        let roundTrip = firstByte.seconds
        if let window, seconds - window.seconds >= max(roundTrip, Self.shortestWindow) {
            if windows > 0 { rate = Double(received - window.received) / (seconds - window.seconds) }
            windows += 1
            self.window = (seconds, received)
        }
        guard let rate, Double(remaining) <= rate * roundTrip else { return false }
        reached = true
        return true
    }
}
