import FileModel
import Foundation
import HTTP
import Transfer

/// The report of a running sync, updated by its tasks.
final class SyncState: @unchecked Sendable {
    private let lock = NSLock()
    private var report: SyncReport
    private let onEvent: @Sendable (SyncEvent) -> Void
    let terms: LocationNames
    /// Nothing is changed: steps are counted in the report as they would be taken, never told as done.
    private let dryRun: Bool
    /// When the server stopped answering (uptime seconds), nil while it answers (``waitForServer(after:attempt:limit:)``).
    let outage = LockedValue<Double?>(nil)
    /// Files not sent because their folder could not be made, per folder.
    let notSent = LockedValue<[String: Int]>([:])

    init(report: SyncReport, terms: LocationNames, onEvent: @escaping @Sendable (SyncEvent) -> Void) {
        self.report = report
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
        lock.withLock {
            report.transferred += 1
            report.bytes += bytes
        }
        done(action)
    }

    func directoryCreated(_ action: SyncAction) {
        lock.withLock { report.directoriesCreated += 1 }
        done(action)
    }

    func deleted(_ action: SyncAction, count: Int) {
        lock.withLock { report.deleted += count }
        done(action)
    }

    func timeSet(_ action: SyncAction) {
        lock.withLock { report.timesSet += 1 }
        done(action)
    }

    func unchanged() { lock.withLock { report.unchanged += 1 } }
    func extraneous(_ count: Int) { lock.withLock { report.extraneous = count } }

    func progress(path: String, bytes: Int64, total: Int64) {
        onEvent(.progress(path: path, bytes: bytes, total: total))
    }

    func warn(_ message: String) {
        lock.withLock { report.warnings += 1 }
        onEvent(.warning(message))
    }

    private var warnedOnce: Set<String> = []

    /// Warns once per run, however many files meet the same condition.
    func warnOnce(_ message: String) {
        guard lock.withLock({ warnedOnce.insert(message).inserted }) else { return }
        warn(message)
    }

    func fail(_ path: String, _ operation: String, _ message: String, category: ErrorCategory? = nil) {
        let failure = SyncFailure(path: path, operation: operation, message: message, category: category)
        record(failure)
        onEvent(.failed(failure))
    }

    private func record(_ failure: SyncFailure) {
        lock.withLock {
            if report.failures.count < SyncReport.listedFailureLimit {
                report.failures.append(failure)
            } else {
                report.unlistedFailures += 1
            }
        }
    }

    func fail(_ path: String, _ operation: String, _ error: any Error) {
        let report = OfficerFilesError(error, terms: terms)
        // Once stopped, what is still under way and fails is part of the stop, told once by its error.
        guard refusal == nil || report.category == .authentication else { return }
        if report.category == .cancelled {
            // The sync was stopped: each transfer it cut short is part of one interruption, not a failure.
            lock.withLock { self.report.interruptedTransfers = (self.report.interruptedTransfers ?? 0) + 1 }
            return
        }
        guard report.category == .authentication else {
            // No space left: every next file would fail the same way, so none is tried after it.
            if report.category == .localFull { lock.withLock { diskFull = true } }
            fail(path, operation, report.message, category: report.category)
            return
        }
        // The token refused, and no sign-in replaced it: every request after this one meets the same refusal. The
        // first stops the sync and is its error (told once, by whoever runs it: ``refusal``); work already under
        // way that meets it again is not a failure of its own.
        let first = lock.withLock {
            defer { if stoppedBy == nil { stoppedBy = error } }
            return stoppedBy == nil
        }
        if first {
            record(SyncFailure(path: path, operation: operation, message: report.message, category: report.category))
        }
    }

    private var stoppedBy: (any Error)?

    /// The refusal of the token, or the failure, that stopped the sync: nothing is started after it.
    var refusal: (any Error)? { lock.withLock { stoppedBy } }

    /// The sync was cancelled (Ctrl-C): an interruption, told as one.
    func interrupted() { lock.withLock { report.interruptedTransfers = report.interruptedTransfers ?? 0 } }

    /// Stops the sync with `error` (a listing the client refused, a server gone past the outage limit): nothing
    /// more is started, what is under way is cancelled, and the sync fails with it and what it had done.
    func stop(_ error: any Error) {
        let report = OfficerFilesError(error, terms: terms)
        lock.withLock {
            guard stoppedBy == nil else { return }
            stoppedBy = SyncStopped(
                reason: report.message, category: report.category, transferred: self.report.transferred)
        }
    }

    private var diskFull = false
    private var untried = 0

    /// True once the destination's disk is full: the files left are counted (``notTried()``), not tried.
    var isDiskFull: Bool { lock.withLock { diskFull } }

    /// A file not tried because the disk is full.
    func notTried() { lock.withLock { untried += 1 } }

    func deferred(_ localPath: String) { onEvent(.deferred(localPath)) }

    /// Recorded in the report only: its summary says why, once.
    func skipDeletions(_ reason: String) {
        lock.withLock { report.deletionsSkipped = reason }
    }

    /// Why deleting would be unsafe now: any failure means the source may not have been seen whole.
    var deletionBlocker: String? {
        lock.withLock {
            if stoppedBy != nil || report.interruptedTransfers != nil { return "the sync did not run to its end" }
            return report.failures.isEmpty
                ? nil
                : "\(report.failures.count) failure\(report.failures.count == 1 ? "" : "s") (deletions happen only after a sync without errors)"
        }
    }

    func finish(_ started: Date) -> SyncReport {
        let left = lock.withLock { untried }
        if left > 0 {
            fail(
                "", "sync", "stopped at the first full disk: \(CountFormat.string(left, "file", "files")) not tried",
                category: .localFull)
        }
        return lock.withLock {
            report.seconds = Date().timeIntervalSince(started)
            return report
        }
    }
}
