/// The work a sync runs while its listings merge: transfers and light remote steps (a HEAD, a checksum, a
/// folder made), each under its own bound.
///
/// Transfers share a budget by weight. Given `--transfers N`, each file weighs one and N go at once. Chosen
/// (``SyncOptions/transfers`` nil), a file weighs one plus a unit per MiB, at most ``heaviest``: while files are
/// small the round trip decides their time, so up to ``automaticBudget`` go at once; large files fill the link
/// with a few (four at once, as a budget of 64 holds four of 16).
struct SyncWorkBounds {
    /// The automatic budget: small files in flight at once when `transfers` is not given.
    static let automaticBudget = 64
    /// The weight of a file of 15 MiB or more under the automatic budget.
    static let heaviest = 16

    private var used = 0
    private var checks = 0
    private let budget: Int
    private let checkers: Int
    private let weighsBySize: Bool

    /// Bounds from `options` (`transfers`, `checkers`).
    init(options: SyncOptions) {
        budget = max(1, options.transfers ?? Self.automaticBudget)
        checkers = max(1, options.checkers)
        weighsBySize = options.transfers == nil
    }

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
