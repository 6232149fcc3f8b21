/// When what is left of a download would take about one round trip at the rate seen so far: the moment a question
/// for the server's version can go out so that its answer comes back with the last bytes instead of a round trip
/// after them.
///
/// The round trip is read from the download itself: the time its first byte took (a request, the server's answer
/// and, on a new connection, the connect too: an estimate that is long rather than short, which only sends the
/// question a little early). The rate is the bytes since that first byte over the time since. A value: observations
/// in, one "now" out; no clock inside.
struct TailWatch: Sendable {
    private var firstByte: (seconds: Double, received: Int64)?
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
            self.firstByte = (seconds, received)
            return false
        }
        let elapsed = seconds - firstByte.seconds
        guard elapsed > 0 else { return false }
        let rate = Double(received - firstByte.received) / elapsed
        if Double(remaining) <= rate * firstByte.seconds {
            reached = true
            return true
        }
        return false
    }
}
