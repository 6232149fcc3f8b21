import FileModel
import Foundation
import HTTP
import Officer
import Transfer

/// What a sync shows: the plan in a dry run, failures and warnings as they happen, `-P` progress, the summary.
final class SyncDisplay: Sendable {
    private let context: CommandContext
    private let dryRun: Bool
    private let roots: SyncRoots
    private let reporter: ProgressReporter?
    private let progressID: Int?
    private let counts = LockedValue(Counts())

    /// What the sync's events have added up to, for the progress line.
    private struct Counts {
        var plannedBytes: Int64 = 0
        var doneBytes: Int64 = 0
        var inFlight: [String: Int64] = [:]
        var plannedFiles = 0
        var doneFiles = 0
    }

    init(context: CommandContext, showProgress: Bool, dryRun: Bool, roots: SyncRoots) {
        self.context = context
        self.dryRun = dryRun
        self.roots = roots
        let reporter = showProgress && !dryRun ? context.progressReporter() : nil
        self.reporter = reporter
        progressID = reporter?.start(name: "sync", total: 0)
        reporter?.setFileCounts(done: 0, total: 0)
    }

    func handle(_ event: SyncEvent) {
        switch event {
        case .planned(let action):
            if dryRun {
                if context.global.json {
                    context.printJSON(SyncStepRecord(type: "planned", action, roots: roots))
                } else {
                    let size = action.bytes > 0 ? " (\(ByteCountFormat.string(action.bytes)))" : ""
                    context.console.print(
                        "\(action.kind.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) \(TerminalText.escaped(action.path))\(size)  \(action.reason)"
                    )
                }
            }
            counts.withLock {
                $0.plannedBytes += action.bytes
                if action.kind == .upload || action.kind == .download { $0.plannedFiles += 1 }
            }
            update()
        case .progress(let path, let bytes, _):
            counts.withLock { $0.inFlight[path] = bytes }
            update()
        case .done(let action):
            if context.global.json { context.printJSON(SyncStepRecord(type: "done", action, roots: roots)) }
            counts.withLock {
                $0.inFlight[action.path] = nil
                $0.doneBytes += action.bytes
                if action.kind == .upload || action.kind == .download { $0.doneFiles += 1 }
            }
            update()
        case .failed(let failure):
            say("officer-files: \(failure)")
        case .warning(let message):
            if !context.global.quiet { say("warning: \(message)") }
        case .deferred:
            break  // only a watch's catch-up defers files
        }
    }

    /// A line on stderr that a progress display does not draw over.
    private func say(_ line: String) {
        if let reporter { reporter.message(line) } else { context.console.message(line) }
    }

    private func update() {
        guard let reporter, let progressID else { return }
        let (done, total, files, names) = counts.withLock {
            (
                $0.doneBytes + $0.inFlight.values.reduce(0, +), $0.plannedBytes, ($0.doneFiles, $0.plannedFiles),
                $0.inFlight.keys.sorted()
            )
        }
        reporter.setFileCounts(done: files.0, total: files.1)
        // The line names the files in flight, as rclone -P lists its transfers.
        let shown = names.prefix(3).map { ($0 as NSString).lastPathComponent }.joined(separator: ", ")
        reporter.rename(
            progressID, to: names.isEmpty ? "sync" : shown + (names.count > 3 ? " +\(names.count - 3)" : ""))
        reporter.update(progressID, done: done, total: total)
    }

    /// Ends the display; a sync that failed or was stopped keeps the bytes it moved (nothing claims 100%).
    func close(failed: Bool) {
        if let reporter, let progressID {
            reporter.finish(progressID, failed: failed)
            reporter.close()
        }
    }

    func summarize(_ report: SyncReport, source: String, destination: String, deleteAsked: Bool) {
        if context.global.json {
            context.printJSON(SyncSummaryRecord(report, roots: roots))
            return
        }
        guard !context.global.quiet || !report.succeeded else { return }
        let verb = dryRun ? "Would transfer" : "Transferred"
        let rate =
            report.seconds > 0 && !dryRun ? ", \(ByteCountFormat.rate(Double(report.bytes) / report.seconds))" : ""
        var lines = [
            "\(verb) \(report.transferred) file\(report.transferred == 1 ? "" : "s") (\(ByteCountFormat.string(report.bytes))) in \(DurationFormat.precise(seconds: report.seconds))\(rate)"
                + "; \(report.unchanged) unchanged, " + (dryRun ? "would create " : "")
                + "\(report.directoriesCreated) folder\(report.directoriesCreated == 1 ? "" : "s")"
                + (dryRun ? "" : " created")
                + (report.timesSet > 0
                    ? (dryRun ? ", would set \(report.timesSet) times" : ", \(report.timesSet) times set") : "")
                + (dryRun ? ", would delete \(report.deleted)" : ", \(report.deleted) deleted")
                + ", \(report.failureCount) error\(report.failureCount == 1 ? "" : "s")"
        ]
        if report.checkedBySizeOnly > 0 {
            let count = report.checkedBySizeOnly
            lines.append("\(count) file\(count == 1 ? "" : "s") " + ContentCheck.sizeOnlyWords)
        }
        if report.extraneous > 0, !deleteAsked {
            lines.append(
                "\(report.extraneous) entr\(report.extraneous == 1 ? "y is" : "ies are") only in \(destination) (sync --delete removes them)"
            )
        }
        if let skipped = report.deletionsSkipped { lines.append("Not deleted: \(skipped)") }
        if !report.failures.isEmpty {
            lines.append("Failed:")
            lines += report.failures.map { "  \($0)" }
            if report.unlistedFailures > 0 { lines.append("  … and \(report.unlistedFailures) more") }
        }
        for line in lines { context.console.message(line) }
    }
}
