import FileModel
import Foundation
import Transfer

/// Shows the progress of long operations: redrawn lines on a terminal, a plain line every few seconds
/// otherwise, NDJSON events with `--json`, or nothing. Thread-safe; every transfer reports into one reporter.
package final class ProgressReporter: Sendable {
    /// How progress is shown.
    package enum Mode: Sendable, Equatable {
        /// One redrawn line per active transfer plus a total line (stderr is a terminal).
        case terminal(width: Int, color: Bool)
        /// A plain summary line every `interval` seconds (stderr is a file or pipe).
        case plain(interval: Double)
        /// One JSON object per line for each event.
        case json
        /// Nothing.
        case off
    }

    private let mode: Mode
    private let board: LockedValue<ProgressBoard>

    /// What the items are called in the total line: `files`, or `parts` when they are ranges of one file.
    package var itemLabel: String {
        get { board.withLock { $0.label } }
        set { board.withLock { $0.label = newValue } }
    }

    /// Creates a reporter writing through `write` (stderr in the CLI); `clock` gives monotonic seconds.
    package init(
        mode: Mode, write: @escaping @Sendable (String) -> Void,
        clock: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }
    ) {
        self.mode = mode
        board = LockedValue(ProgressBoard(mode: mode, write: write, clock: clock))
    }

    /// The mode the CLI uses for its global options and console.
    package static func mode(json: Bool, quiet: Bool, noProgress: Bool, console: Console, environment: [String: String])
        -> Mode
    {
        if json { return .json }
        if quiet || noProgress { return .off }
        if console.errorIsTerminal {
            let width = Int(environment["COLUMNS"] ?? "") ?? terminalWidth() ?? 80
            return .terminal(width: width, color: console.colorEnabled)
        }
        return .plain(interval: 5)
    }

    private static func terminalWidth() -> Int? {
        var size = winsize()
        return ioctl(2, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : nil
    }

    /// Registers a transfer and returns its id; `resumed` bytes were in place before this run (they count as
    /// done, never as speed).
    package func start(name: String, total: Int64?, resumed: Int64? = 0) -> Int {
        board.withLock { $0.start(name: name, total: total, resumed: resumed) }
    }

    /// Records bytes done (and the total, once known) for a transfer.
    package func update(_ id: Int, done: Int64, total: Int64? = nil) {
        if mode == .off { return }
        board.withLock { $0.update(id, done: done, total: total) }
    }

    /// Marks a transfer finished.
    package func finish(_ id: Int, failed: Bool = false) { board.withLock { $0.finish(id, failed: failed) } }

    /// The whole of a batch, before its first file starts: the total line counts toward it from the start.
    package func expect(files: Int, bytes: Int64?) { board.withLock { $0.expect(files: files, bytes: bytes) } }

    /// A transfer's new name (a sync's files in flight).
    package func rename(_ id: Int, to name: String) { board.withLock { $0.rename(id, to: name) } }

    /// Bytes a transfer found in place whose parts report them one by one (a resumed download in ranges):
    /// they count as done, never as speed.
    package func noteResumed(_ bytes: Int64) { board.withLock { $0.noteResumed(bytes) } }

    /// Counts for the total line when one item stands for many files (a sync's bytes in one bar).
    package func setFileCounts(done: Int, total: Int) { board.withLock { $0.setFileCounts(done: done, total: total) } }

    /// Writes one message line (a result, a warning) without breaking the display: on a terminal the frame is
    /// cleared, the line printed, and the frame drawn again below it, so a redraw never overwrites the message.
    package func message(_ line: String) { board.withLock { $0.message(line) } }

    /// Forgets a transfer that starts over under a new id (a download restarted from zero): its bytes leave the
    /// totals and the rate is measured afresh, so a restart neither counts a file twice nor skews the ETA.
    package func discard(_ id: Int) { board.withLock { $0.discard(id) } }

    /// Ends the display. When everything finished as asked, the command's own result line is the summary: a
    /// terminal's frame is cleared and a log gets no second line. When something did not finish, the last line
    /// says what was done and what was not, with this run's average rate.
    package func close() { board.withLock { $0.close() } }
}
