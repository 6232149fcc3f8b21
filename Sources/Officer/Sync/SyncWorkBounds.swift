import HTTP

/// The work a sync runs while its listings merge: transfers and light remote steps (a HEAD, a checksum, a
/// folder made), each under its own bound.
///
/// Transfers share a budget by weight. Given `--transfers N`, each file weighs one and N go at once. Chosen
/// (``SyncOptions/transfers`` nil), a file weighs one plus a unit per MiB, at most ``heaviest``: while files are
/// small the round trip decides their time, so up to ``automaticBudget`` go at once where round trips are short,
/// more where they are long (``budget(forRoundTrip:)``: up to 256, as s5cmd keeps) — at once until a first cut (the
/// listings measured the round trip before the first transfer), one a transfer after it; large
/// files fill the link with a few (four at once, as a budget of 64 holds four of 16). An answer asking to slow down
/// (503, 429, on either side's ``LinkMeter``) halves the chosen budget, down to ``leastBudget``; a latency that climbs
/// (``LinkMeter/latencyClimbs``: queues building up) takes a quarter off, at most once a budget's worth of
/// transfers, and while it stays high the budget does not grow.
struct SyncWorkBounds {
    /// The automatic budget: small files in flight at once when `transfers` is not given.
    static let automaticBudget = 64
    /// The most the automatic budget grows to on a long round trip.
    static let mostBudget = 256
    /// The least a store's requests to slow down bring the automatic budget to.
    static let leastBudget = 4
    /// The weight of a file of 15 MiB or more under the automatic budget.
    static let heaviest = 16

    private var used = 0
    private var checks = 0
    private var budget: Int
    private let checkers: Int
    private let weighsBySize: Bool
    /// The sides' meters, read as transfers are added (the automatic budget only).
    private let meters: [LinkMeter]
    /// Slow-down answers already taken in.
    private var throttledSeen = 0
    /// Cuts so far.
    private var cuts = 0
    /// Transfers added since the budget was last cut.
    private var addedSinceCut = 0

    /// Bounds from `options` (`transfers`, `checkers`); the automatic budget follows `meters`.
    init(options: SyncOptions, meters: [LinkMeter] = []) {
        budget = max(1, options.transfers ?? Self.automaticBudget)
        checkers = max(1, options.checkers)
        weighsBySize = options.transfers == nil
        self.meters = weighsBySize ? meters : []
        throttledSeen = self.meters.reduce(0) { $0 + $1.throttledAnswers }
    }

    /// The automatic budget for a round trip: 64 up to 50 ms, then in proportion (a link's bandwidth-delay product
    /// in small files), at most ``mostBudget``.
    static func budget(forRoundTrip roundTrip: Duration?) -> Int {
        guard let roundTrip else { return automaticBudget }
        let milliseconds = Double(roundTrip.components.seconds) * 1000 + Double(roundTrip.components.attoseconds) / 1e15
        return min(mostBudget, max(automaticBudget, Int(Double(automaticBudget) * milliseconds / 50)))
    }

    /// Takes in what the meters say: a new answer asking to slow down halves the budget, a climbing latency takes a
    /// quarter off; otherwise it goes towards what the longest round trip calls for.
    private mutating func followMeters() {
        guard !meters.isEmpty else { return }
        let throttled = meters.reduce(0) { $0 + $1.throttledAnswers }
        if throttled > throttledSeen {
            throttledSeen = throttled
            cut(by: 2)
            return
        }
        // A climbing latency takes a quarter off, at most once a budget's worth of transfers: the cut takes that long
        // to drain the queue it built. Gentler than a slow-down answer: on a store whose own rate bounds the work,
        // more in flight only queues there, and fewer still keep it busy.
        if meters.contains(where: \.latencyClimbs) {
            if addedSinceCut >= budget { cut(by: 4) }
            return
        }
        let target = Self.budget(forRoundTrip: meters.compactMap(\.roundTrip).max())
        // Until the first cut the budget goes straight to what the round trip calls for (the listings measured it
        // before the first transfer); after one, it grows one a transfer.
        if budget < target { budget = cuts == 0 ? target : budget + 1 }
    }

    /// Takes `1/divisor` of the budget off (a half for 2, a quarter for 4), down to ``leastBudget``.
    private mutating func cut(by divisor: Int) {
        budget = max(Self.leastBudget, budget - budget / divisor)
        cuts += 1
        addedSinceCut = 0
    }

    /// The budget in use now.
    var currentBudget: Int { budget }

    /// What a transfer of `size` bytes takes of the budget.
    func weight(ofSize size: Int64) -> Int {
        guard weighsBySize else { return 1 }
        return Int(min(Int64(Self.heaviest), 1 + max(0, size) >> 20))
    }

    /// Adds `work` to `group` once there is room for it (a check: one of `checkers`; a transfer of `size` bytes:
    /// its weight), waiting for earlier work to end.
    mutating func add(
        to group: inout TaskGroup<Int>, isCheck: Bool, size: Int64 = 0, _ work: @escaping @Sendable () async -> Void
    ) async {
        // A check weighs nothing in the budget and is returned as -1.
        let weight = isCheck ? -1 : self.weight(ofSize: size)
        if !isCheck {
            addedSinceCut += 1
            followMeters()
        }
        while isCheck ? checks >= checkers : used > 0 && used + weight > budget, let finished = await group.next() {
            if finished < 0 { checks -= 1 } else { used -= finished }
        }
        group.addTask {
            await work()
            return weight
        }
        if isCheck { checks += 1 } else { used += weight }
    }
}
