import FileModel
import Foundation

/// What the answers of one front door's requests say of the link and the far end, for work that decides how much to
/// keep in flight (a sync's transfers): the shortest time a request without a body took from sending to its answer
/// (the round trip, plus the least the server takes), the recent time of small exchanges (a moving average: it climbs
/// when queues build up on the link or in the server), and how many answers asked to slow down (503, 429). Shared by
/// every copy of the configuration that made it.
package final class LinkMeter: Sendable {
    private struct Readings {
        var fastest: Duration?
        /// The shortest small exchange: the base a recent time is held to (a small PUT takes a store's write too).
        var fastestSmall: Duration?
        var recent: Duration?
        var throttled = 0
    }
    private let readings = LockedValue(Readings())

    /// The most bytes either way an exchange may move and still time the link: past it, the time is the bytes'.
    package static let smallExchangeBytes: Int64 = 64 << 10

    /// A meter with nothing read yet.
    package init() {}

    /// Takes in one answered attempt: `elapsed` from sending to the answer's end; `roundTrip` when the request
    /// carried no body (only those set the shortest time, the round trip); `small` when both ways moved at most
    /// ``smallExchangeBytes`` (those make the recent time).
    package func record(status: Int, elapsed: Duration?, roundTrip: Bool = true, small: Bool = true) {
        readings.withLock { readings in
            if status == 503 || status == 429 { readings.throttled += 1 }
            guard let elapsed, elapsed > .zero else { return }
            if roundTrip, readings.fastest.map({ elapsed < $0 }) ?? true { readings.fastest = elapsed }
            // An average over about the last eight: one slow answer does not make a trend.
            guard small else { return }
            readings.recent = readings.recent.map { ($0 * 7 + elapsed) / 8 } ?? elapsed
            if readings.fastestSmall.map({ elapsed < $0 }) ?? true { readings.fastestSmall = elapsed }
        }
    }

    /// The shortest request seen; nil before any.
    package var roundTrip: Duration? { readings.withLock { $0.fastest } }

    /// Whether the recent time of small exchanges climbed past four times the shortest one and by more than 50 ms
    /// (a queue building up, not a loopback's jitter): the far end or the link is taking more than it can move.
    package var latencyClimbs: Bool {
        readings.withLock { readings in
            guard let base = readings.fastestSmall, let recent = readings.recent else { return false }
            return recent > base * 4 && recent - base > .milliseconds(50)
        }
    }

    /// Answers that asked to slow down, so far.
    package var throttledAnswers: Int { readings.withLock { $0.throttled } }
}
