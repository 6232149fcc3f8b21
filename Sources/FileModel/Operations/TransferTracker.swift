import Foundation

/// Reads a transfer's ``TransferEvent``s into its ``OperationProgress``: the one place a file's parts are summed,
/// a part's resumed share is told from its first report, and a restart starts the count afresh. An app that
/// binds to ``ProgressOperation/progress()`` gets these; the CLI's display reads the same meter.
package final class TransferTracker: Sendable {
    /// What the events said of the parts so far.
    private struct Parts {
        var partDone: [Int64] = []
        var partSeen: [Bool] = []
        var several = false
        var paused = false
    }
    private let meter: ProgressMeter
    private let parts = LockedValue(Parts())

    /// A tracker whose clock starts now.
    package init(clock: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }) {
        meter = ProgressMeter(clock: clock)
    }

    /// A tracker measuring on `clock` (an operation's), from now.
    package convenience init(on clock: any Clock<Duration>) {
        let reading = ClockReading(clock)
        self.init(clock: { reading.seconds })
    }

    /// Takes in one event; returns how the transfer stands after it.
    @discardableResult
    package func apply(_ event: TransferEvent) -> OperationProgress {
        parts.withLock { tracked in
            switch event {
            case .started(let total, let partSizes, let resumed, _, let partsResumed):
                if !tracked.partDone.isEmpty { meter.discard(done: tracked.partDone.reduce(0, +)) }
                tracked.several = partSizes.count > 1
                tracked.partDone = Array(repeating: 0, count: max(1, partSizes.count))
                tracked.partSeen = Array(repeating: false, count: tracked.partDone.count)
                if tracked.several, partsResumed.count == partSizes.count {
                    // Each part's share is known from the start: the whole resumed count shows at once, also for
                    // a part that was already complete and so never reports.
                    tracked.partDone = partsResumed
                    tracked.partSeen = tracked.partSeen.map { _ in true }
                    meter.begin(total: total, resumed: partsResumed.reduce(0, +))
                } else {
                    // One stream's resumed bytes are known; parts without shares tell theirs in their first reports.
                    meter.begin(total: total, resumed: tracked.several ? 0 : resumed)
                    if !tracked.several { tracked.partDone[0] = resumed }
                }
            case .progress(let part, let done):
                guard part >= 0 else { break }
                if part >= tracked.partDone.count {
                    tracked.partDone += Array(repeating: 0, count: part + 1 - tracked.partDone.count)
                    tracked.partSeen += Array(repeating: false, count: part + 1 - tracked.partSeen.count)
                }
                if tracked.several, !tracked.partSeen[part] { meter.addResumed(done) }
                tracked.partSeen[part] = true
                tracked.partDone[part] = done
                meter.record(done: tracked.partDone.reduce(0, +))
            case .restarted:
                meter.discard(done: tracked.partDone.reduce(0, +))
                tracked.partDone = tracked.partDone.map { _ in 0 }
                // Starting over, nothing is resumed: a part's first report is bytes of this run.
                tracked.partSeen = tracked.partSeen.map { _ in true }
            case .paused:
                tracked.paused = true
            case .verifying:
                meter.setState(.verifying)
            case .retrying, .warning:
                break
            }
            return meter.snapshot
        }
    }

    /// The transfer ended with `outcome`: completed, failed or cancelled (by the category of its error).
    @discardableResult
    package func end(_ outcome: Result<Void, any Error>) -> OperationProgress {
        parts.withLock { tracked in
            switch outcome {
            case .success:
                meter.fileEnded(failed: false)
                meter.end(.completed)
            case .failure(let error):
                meter.fileEnded(failed: true)
                let stopped = ErrorCategory.of(error) == .cancelled || error is CancellationError
                meter.end(stopped ? (tracked.paused ? .paused : .cancelled) : .failed)
            }
            return meter.snapshot
        }
    }

    /// How the transfer stands now.
    package var snapshot: OperationProgress { meter.snapshot }
}

/// One step of a transfer as an app binds to it: the event and the progress after it.
public struct TransferUpdate: Sendable, Equatable {
    /// What happened; nil for the last update, which gives the end state.
    public var event: TransferEvent?
    /// How the transfer stands after it.
    public var progress: OperationProgress
}

extension ProgressOperation where Event == TransferEvent {
    /// The operation's events, each with the ``OperationProgress`` after it, ending with one update (no event)
    /// whose state says how the work ended. Read either this or the events, once. Cancelling the task that
    /// reads it, or leaving the loop early, cancels the work; a cancelled reader still gets the updates up to
    /// the end and the final one (state `cancelled`), so what it shows is how the work stopped.
    public func progress() -> TransferUpdates {
        let tracker = TransferTracker(on: clock)
        let channel = UpdateChannel<TransferUpdate>(limit: 1024)
        // The forwarder belongs to the work it reads: it ends when the work's events do, which `stop` (the
        // work's cancel) brings about; it is never cancelled itself, so the final update always goes out.
        Task {
            for await event in self { channel.send(TransferUpdate(event: event, progress: tracker.apply(event))) }
            let outcome: Result<Void, any Error>
            do {
                _ = try await self.value
                outcome = .success(())
            } catch {
                outcome = .failure(error)
            }
            channel.send(TransferUpdate(event: nil, progress: tracker.end(outcome)), last: true)
        }
        return TransferUpdates(channel: channel, stop: { [self] in cancel() })
    }
}
