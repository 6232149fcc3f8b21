import FileModel
import Foundation
import Transfer

/// Progress lines for one file moved in parts (ranges of a download, parts of an upload): one line per
/// part plus the total, and `-v` notes for retries and restarts. Shared by `get` and `put`.
final class PartsDisplay: Sendable {
    let reporter: ProgressReporter
    let name: String
    private let verbose: Bool
    /// `-q`: results and notes are not shown.
    let quiet: Bool
    private let console: Console
    /// The lines shown, one per part: the reporter's id, the part's size, and whether it is finished (a part
    /// whose bytes are all in leaves the display and counts as done at once, not when the whole file is).
    private let parts = LockedValue<[Part]>([])

    private struct Part {
        var id: Int
        var size: Int64?
        var finished = false
    }

    init(reporter: ProgressReporter, name: String, context: CommandContext) {
        self.reporter = reporter
        self.name = name
        verbose = context.global.verbose
        quiet = context.global.quiet || context.global.json
        console = context.console
    }

    /// (Re)starts the display with one line per part of the given sizes (a single line for one part);
    /// `resumed` bytes were in place before this run.
    func start(total: Int64?, partSizes: [Int64], resumed: Int64 = 0) {
        let (reporter, name) = (reporter, name)
        parts.withLock { parts in
            for part in parts { reporter.discard(part.id) }
            if partSizes.count <= 1 {
                // The single line finishes with the file (its last bytes are checked before they take its name).
                parts = [Part(id: reporter.start(name: name, total: total, resumed: resumed), size: nil)]
            } else {
                reporter.itemLabel = "parts"
                // Each part's share of the resumed bytes is what it first reports.
                reporter.noteResumed(resumed)
                parts = partSizes.enumerated().map { index, size in
                    let label = "\(name) [\(index + 1)/\(partSizes.count)]"
                    return Part(id: reporter.start(name: label, total: size, resumed: nil), size: size)
                }
            }
        }
    }

    /// Bytes of a part done; a part of several whose bytes are all in is finished.
    func progress(part index: Int, done: Int64) {
        let (shown, complete) = parts.withLock { parts -> (Part?, Bool) in
            guard index < parts.count, !parts[index].finished else { return (nil, false) }
            let complete = parts[index].size.map { done >= $0 } ?? false
            if complete { parts[index].finished = true }
            return (parts[index], complete)
        }
        guard let shown else { return }
        reporter.update(shown.id, done: done)
        if complete { reporter.finish(shown.id) }
    }

    /// A line for `-v` only.
    func note(_ text: String) {
        if verbose { console.message("\(name): \(text)") }
    }

    /// Marks every part not finished yet finished.
    func finish(failed: Bool) {
        for part in parts.current where !part.finished { reporter.finish(part.id, failed: failed) }
    }
}

extension PartsDisplay {
    /// Shows a transfer's events (downloads and uploads alike): one line per part, plus the total.
    func handle(_ event: TransferEvent) {
        switch event {
        case .started(let total, let partSizes, let resumed, let method, _):
            if method == .multipart {
                note("the server has no tus: uploading in one multipart request (not resumable)")
            }
            if method == .tus, resumed > 0, !quiet, let total {
                reporter.message(
                    "\(name): resuming at \(ByteCountFormat.string(resumed)) of \(ByteCountFormat.string(total)) (the server has it)"
                )
            }
            start(total: total, partSizes: partSizes, resumed: resumed)
        case .progress(let part, let done): progress(part: part, done: done)
        case .retrying(let part, let attempt, let delay, let reason):
            note(
                "retrying part \(part + 1) (attempt \(attempt)) in \(DurationFormat.precise(seconds: delay)): \(reason)"
            )
        case .restarted(let reason): note("starting over: \(reason)")
        case .warning(let message): reporter.message("warning: \(message)")
        case .paused: break  // the command's end says where the upload stopped and how to continue it
        case .verifying: note("every byte is in: checking them before they take their name")
        }
    }
}
