import FileModel
import Foundation

/// What the answers of one front door's requests say of the link and the far end, for work that decides how much to
/// keep in flight (a sync's transfers): the shortest time a request without a body took from sending to its answer
/// (the round trip, plus the least the server takes), and how many answers asked to slow down (503, 429). Shared by
/// every copy of the configuration that made it.
package final class LinkMeter: Sendable {
    private struct Readings {
        var fastest: Duration?
        var throttled = 0
    }
    private let readings = LockedValue(Readings())

    /// A meter with nothing read yet.
    package init() {}

    /// Takes in one answered attempt: `elapsed` from sending to the answer's end, for a request that carried no body.
    package func record(status: Int, elapsed: Duration?) {
        readings.withLock { readings in
            if status == 503 || status == 429 { readings.throttled += 1 }
            if let elapsed, elapsed > .zero, readings.fastest.map({ elapsed < $0 }) ?? true {
                readings.fastest = elapsed
            }
        }
    }

    /// The shortest request seen; nil before any.
    package var roundTrip: Duration? { readings.withLock { $0.fastest } }

    /// Answers that asked to slow down, so far.
    package var throttledAnswers: Int { readings.withLock { $0.throttled } }
}
