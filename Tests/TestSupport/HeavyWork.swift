/// Runs the suite's heaviest tests (hundreds of megabytes through real servers) one at a time.
///
/// Swift Testing starts every test at once; with two cores, several of these together starve the tests that
/// interrupt a throttled transfer at a point they wait for, and those then fail for want of CPU, not of
/// correctness.
public actor HeavyWork {
    /// The one queue all heavy tests share.
    public static let shared = HeavyWork()

    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Runs `body` when no other heavy test runs.
    public func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        if busy {
            await withCheckedContinuation { waiting.append($0) }
        }
        busy = true
        defer {
            if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
        }
        return try await body()
    }
}
