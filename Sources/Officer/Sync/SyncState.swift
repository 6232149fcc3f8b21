import FileModel
import Foundation
import HTTP
import Transfer

/// The report of a running sync, updated by its tasks.
final class SyncState: Sendable {
    /// What the sync's tasks count and decide together.
    private struct Tally {
        var report: SyncReport
        var warnedOnce: Set<String> = []
        var stoppedBy: (any Error)?
        var diskFull = false
        var untried = 0
    }
    private let tally: LockedValue<Tally>
    private let onEvent: @Sendable (SyncEvent) -> Void
    let terms: LocationNames
    /// Nothing is changed: steps are counted in the report as they would be taken, never told as done.
    private let dryRun: Bool
    /// When the server stopped answering (``time``'s seconds), nil while it answers (``waitForServer(after:attempt:limit:)``).
    let outage = LockedValue<Double?>(nil)
    /// Files not sent because their folder could not be made, per folder.
    let notSent = LockedValue<[String: Int]>([:])

    /// The clock the waits for a server are on, and the outage's age read from it.
    let clock: any Clock<Duration>
    let time: ClockReading

    init(
        report: SyncReport, terms: LocationNames, clock: any Clock<Duration> = ContinuousClock(),
        onEvent: @escaping @Sendable (SyncEvent) -> Void
    ) {
        tally = LockedValue(Tally(report: report))
        self.clock = clock
        time = ClockReading(clock)
        self.terms = terms
        self.onEvent = onEvent
        dryRun = report.dryRun
    }

    func planned(_ action: SyncAction) { onEvent(.planned(action)) }

    /// A step taken is `done`; a dry run's steps stay `planned` (the one place that tells them apart).
    private func done(_ action: SyncAction) {
        if !dryRun { onEvent(.done(action)) }
    }

    func transferred(_ action: SyncAction, bytes: Int64) {
        tally.withLock {
            $0.report.transferred += 1
            $0.report.bytes += bytes
            if action.checked == .size { $0.report.checkedBySizeOnly += 1 }
        }
        done(action)
    }

    func directoryCreated(_ action: SyncAction) {
        tally.withLock { $0.report.directoriesCreated += 1 }
        done(action)
    }

    func deleted(_ action: SyncAction, count: Int) {
        tally.withLock { $0.report.deleted += count }
        done(action)
    }

    func timeSet(_ action: SyncAction) {
        tally.withLock { $0.report.timesSet += 1 }
        done(action)
    }

    func unchanged() { tally.withLock { $0.report.unchanged += 1 } }
    func extraneous(_ count: Int) { tally.withLock { $0.report.extraneous = count } }

    func progress(path: String, bytes: Int64, total: Int64) {
        onEvent(.progress(path: path, bytes: bytes, total: total))
    }

    func warn(_ message: String) {
        tally.withLock { $0.report.warnings += 1 }
        onEvent(.warning(message))
    }

    /// Warns once per run, however many files meet the same condition.
    func warnOnce(_ message: String) {
        guard tally.withLock({ $0.warnedOnce.insert(message).inserted }) else { return }
        warn(message)
    }

    func fail(_ path: String, _ operation: String, _ message: String, category: ErrorCategory? = nil) {
        let failure = SyncFailure(path: path, operation: operation, message: message, category: category)
        record(failure)
        onEvent(.failed(failure))
    }

    private func record(_ failure: SyncFailure) {
        tally.withLock {
            if $0.report.failures.count < SyncReport.listedFailureLimit {
                $0.report.failures.append(failure)
            } else {
                $0.report.unlistedFailures += 1
            }
        }
    }

    func fail(_ path: String, _ operation: String, _ error: any Error) {
        let report = OfficerFilesError(error, terms: terms)
        // Once stopped, what is still under way and fails is part of the stop, told once by its error.
        guard refusal == nil || report.category == .authentication else { return }
        if report.category == .cancelled {
            // The sync was stopped: each transfer it cut short is part of one interruption, not a failure.
            tally.withLock { $0.report.interruptedTransfers = ($0.report.interruptedTransfers ?? 0) + 1 }
            return
        }
        guard report.category == .authentication else {
            // No space left: every next file would fail the same way, so none is tried after it.
            if report.category == .localFull { tally.withLock { $0.diskFull = true } }
            fail(path, operation, report.message, category: report.category)
            return
        }
        // The token refused, and no sign-in replaced it: every request after this one meets the same refusal. The
        // first stops the sync and is its error (told once, by whoever runs it: ``refusal``); work already under
        // way that meets it again is not a failure of its own.
        let first = tally.withLock { tally in
            guard tally.stoppedBy == nil else { return false }
            tally.stoppedBy = error
            return true
        }
        if first {
            record(SyncFailure(path: path, operation: operation, message: report.message, category: report.category))
        }
    }

    /// The refusal of the token, or the failure, that stopped the sync: nothing is started after it.
    var refusal: (any Error)? { tally.withLock { $0.stoppedBy } }

    /// The sync was cancelled (Ctrl-C): an interruption, told as one.
    func interrupted() { tally.withLock { $0.report.interruptedTransfers = $0.report.interruptedTransfers ?? 0 } }

    /// Stops the sync with `error` (a listing the client refused, a server gone past the outage limit): nothing
    /// more is started, what is under way is cancelled, and the sync fails with it and what it had done.
    func stop(_ error: any Error) {
        let report = OfficerFilesError(error, terms: terms)
        tally.withLock {
            guard $0.stoppedBy == nil else { return }
            $0.stoppedBy = SyncStopped(
                reason: report.message, category: report.category, transferred: $0.report.transferred)
        }
    }

    /// True once the destination's disk is full: the files left are counted (``notTried()``), not tried.
    var isDiskFull: Bool { tally.withLock { $0.diskFull } }

    /// A file not tried because the disk is full.
    func notTried() { tally.withLock { $0.untried += 1 } }

    func deferred(_ localPath: String) { onEvent(.deferred(localPath)) }

    /// Recorded in the report only: its summary says why, once.
    func skipDeletions(_ reason: String) {
        tally.withLock { $0.report.deletionsSkipped = reason }
    }

    /// Why deleting would be unsafe now: any failure means the source may not have been seen whole.
    var deletionBlocker: String? {
        tally.withLock { tally in
            let report = tally.report
            if tally.stoppedBy != nil || report.interruptedTransfers != nil { return "the sync did not run to its end" }
            return report.failures.isEmpty
                ? nil
                : "\(report.failures.count) failure\(report.failures.count == 1 ? "" : "s") (deletions happen only after a sync without errors)"
        }
    }

    func finish(_ started: Date) -> SyncReport {
        let left = tally.withLock { $0.untried }
        if left > 0 {
            fail(
                "", "sync", "stopped at the first full disk: \(CountFormat.string(left, "file", "files")) not tried",
                category: .localFull)
        }
        return tally.withLock {
            $0.report.seconds = Date().timeIntervalSince(started)
            return $0.report
        }
    }
}
