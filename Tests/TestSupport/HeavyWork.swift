import Foundation

/// Runs the suite's heaviest tests (hundreds of megabytes through real servers) at most two at a time.
///
/// Swift Testing starts every test at once; with two cores, many of these together starved the tests that
/// interrupt a throttled transfer at a point they wait for (before those waited for events rather than times).
/// One at a time made their chain the suite's longest path, most of it spent waiting on rate limits and kills
/// while a core sat idle: two share the machine without starving each other.
public actor HeavyWork {
    /// The one queue all heavy tests share.
    public static let shared = HeavyWork()

    private let slots = 2
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Runs `body` when a slot is free, and says on standard error how long it waited and ran: the
    /// chain of heavy tests is the suite's longest path, so CI's log shows where its time goes.
    public func run<T: Sendable>(
        _ name: String = #function, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let queued = ContinuousClock.now
        if running >= slots {
            // The finishing test hands its slot over: `running` stays counted for this one.
            await withCheckedContinuation { waiting.append($0) }
        } else {
            running += 1
        }
        let started = ContinuousClock.now
        defer {
            func seconds(_ duration: Duration) -> String {
                String(
                    format: "%.1f s",
                    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
            }
            let line =
                "heavy: \(name) ran \(seconds(ContinuousClock.now - started)) after waiting \(seconds(started - queued))\n"
            FileHandle.standardError.write(Data(line.utf8))
            if waiting.isEmpty { running -= 1 } else { waiting.removeFirst().resume() }
        }
        // At high priority: the suite's hundreds of light tests start at once and queue on the two threads of the
        // cooperative pool; a heavy test behind them ran 15 s of work in 214 s, and the chain it heads is the
        // suite's longest path. Its child tasks and resumptions inherit the priority.
        let work = Task(priority: .high) { try await body() }
        return try await withTaskCancellationHandler {
            try await work.value
        } onCancel: {
            work.cancel()
        }
    }
}
