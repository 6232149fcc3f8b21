import FileModel
import Foundation

/// Shows the progress of long operations: redrawn lines on a terminal, a plain line every few seconds
/// otherwise, NDJSON events with `--json`, or nothing. Thread-safe; every transfer reports into one reporter.
public final class ProgressReporter: @unchecked Sendable {
    /// How progress is shown.
    public enum Mode: Sendable, Equatable {
        /// One redrawn line per active transfer plus a total line (stderr is a terminal).
        case terminal(width: Int, color: Bool)
        /// A plain summary line every `interval` seconds (stderr is a file or pipe).
        case plain(interval: Double)
        /// One JSON object per line for each event.
        case json
        /// Nothing.
        case off
    }

    private let lock = NSLock()
    private let mode: Mode
    private let write: @Sendable (String) -> Void
    private let clock: @Sendable () -> Double
    private let started: Double
    private var items: [Int: ProgressItem] = [:]
    private var order: [Int] = []
    private var estimators: [Int: RateEstimator] = [:]
    private var totalEstimator = RateEstimator()
    private var nextID = 0
    private var lastDraw = -Double.infinity
    private var drawnLines = 0
    private var label = "files"
    private var fileCounts: (done: Int, total: Int)?

    /// What the items are called in the total line: `files`, or `parts` when they are ranges of one file.
    public var itemLabel: String {
        get { lock.withLock { label } }
        set { lock.withLock { label = newValue } }
    }

    /// Creates a reporter writing through `write` (stderr in the CLI); `clock` gives monotonic seconds.
    public init(
        mode: Mode, write: @escaping @Sendable (String) -> Void,
        clock: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }
    ) {
        self.mode = mode
        self.write = write
        self.clock = clock
        started = clock()
        // A plain log gets its first line one interval in: short operations stay silent.
        if case .plain = mode { lastDraw = started }
    }

    /// The mode the CLI uses for its global options and console.
    public static func mode(json: Bool, quiet: Bool, noProgress: Bool, console: Console, environment: [String: String]) -> Mode {
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

    /// Registers a transfer and returns its id.
    public func start(name: String, total: Int64?) -> Int {
        lock.withLock {
            let id = nextID
            nextID += 1
            items[id] = ProgressItem(id: id, name: name, total: total)
            order.append(id)
            estimators[id] = RateEstimator()
            emitJSON(["type": "start", "id": id, "name": name, "size": total])
            return id
        }
    }

    /// Records bytes done (and the total, once known) for a transfer.
    public func update(_ id: Int, done: Int64, total: Int64? = nil) {
        if mode == .off { return }
        lock.withLock {
            guard var item = items[id] else { return }
            let now = clock()
            item.done = done
            if let total { item.total = total }
            estimators[id]?.record(bytes: done, at: now)
            item.rate = estimators[id]?.bytesPerSecond
            items[id] = item
            totalEstimator.record(bytes: items.values.reduce(0) { $0 + $1.done }, at: now)
            redrawIfDue(now: now, force: false)
        }
    }

    /// Marks a transfer finished.
    public func finish(_ id: Int, failed: Bool = false) {
        lock.withLock {
            guard var item = items[id] else { return }
            item.finished = true
            item.failed = failed
            if !failed, let total = item.total { item.done = total }
            items[id] = item
            emitJSON(["type": failed ? "failed" : "done", "id": id, "name": item.name, "doneBytes": item.done])
            redrawIfDue(now: clock(), force: true)
        }
    }

    /// Counts for the total line when one item stands for many files (a sync's bytes in one bar).
    public func setFileCounts(done: Int, total: Int) {
        lock.withLock { fileCounts = (done, total) }
    }

    /// Writes one message line (a result, a warning) without breaking the display: on a terminal the frame is
    /// cleared, the line printed, and the frame drawn again below it, so a redraw never overwrites the message.
    public func message(_ line: String) {
        lock.withLock {
            let text = TerminalText.escaped(line, .name) + "\n"
            guard case .terminal = mode, drawnLines > 0 else {
                write(text)
                return
            }
            var erase = "\u{1B}[\(drawnLines)A"
            for _ in 0..<drawnLines { erase += "\r\u{1B}[2K\n" }
            erase += "\u{1B}[\(drawnLines)A"
            write(erase + text)
            drawnLines = 0
            if items.values.contains(where: { !$0.finished }) { redraw(now: clock()) }
        }
    }

    /// Forgets a transfer that starts over under a new id (a download restarted from zero): its bytes leave the
    /// totals and the rate is measured afresh, so a restart neither counts a file twice nor skews the ETA.
    public func discard(_ id: Int) {
        lock.withLock {
            guard items.removeValue(forKey: id) != nil else { return }
            order.removeAll { $0 == id }
            estimators[id] = nil
            totalEstimator = RateEstimator()
        }
    }

    /// Draws the final state and leaves the cursor below it.
    public func close() {
        lock.withLock {
            switch mode {
            case .terminal:
                redraw(now: clock())
                // The final frame stays as it is: what is printed next goes below it, never under a redraw.
                drawnLines = 0
            case .plain: if !items.isEmpty { write(summaryLine(now: clock()) + "\n") }
            case .json: emitJSON(["type": "summary", "doneBytes": items.values.reduce(0) { $0 + $1.done }, "files": items.count])
            case .off: break
            }
        }
    }

    private func redrawIfDue(now: Double, force: Bool) {
        switch mode {
        case .terminal:
            if force || now - lastDraw >= 0.1 { redraw(now: now) }
        case .plain(let interval):
            if now - lastDraw >= interval {
                lastDraw = now
                write(summaryLine(now: now) + "\n")
            }
        case .json:
            if now - lastDraw >= 0.5 || force {
                lastDraw = now
                for id in order where !(items[id]?.finished ?? true) {
                    let item = items[id]!
                    emitJSON(["type": "progress", "id": id, "name": item.name, "doneBytes": item.done,
                              "size": item.total, "bytesPerSecond": item.rate])
                }
            }
        case .off: break
        }
    }

    private func summaryLine(now: Double) -> String {
        let all = order.compactMap { items[$0] }
        let totals = all.compactMap(\.total)
        return ProgressFormatter.totalLine(
            done: all.reduce(0) { $0 + $1.done }, total: totals.count == all.count ? totals.reduce(0, +) : nil,
            rate: totalEstimator.bytesPerSecond, filesDone: fileCounts?.done ?? all.filter(\.finished).count,
            filesTotal: fileCounts?.total ?? all.count,
            elapsed: now - started, itemLabel: label)
    }

    private func redraw(now: Double) {
        guard case .terminal(let width, let color) = mode else { return }
        lastDraw = now
        var lines = order.compactMap { items[$0] }.filter { !$0.finished }.map { ProgressFormatter.transferLine($0, width: width) }
        let total = summaryLine(now: now)
        lines.append(color ? "\u{1B}[1m" + total + "\u{1B}[0m" : total)
        var text = drawnLines > 0 ? "\u{1B}[\(drawnLines)A" : ""
        for line in lines { text += "\r\u{1B}[2K" + String(line.prefix(width)) + "\n" }
        // Lines left over from a taller previous frame are cleared, then the cursor returns below the frame.
        let extra = max(0, drawnLines - lines.count)
        for _ in 0..<extra { text += "\r\u{1B}[2K\n" }
        if extra > 0 { text += "\u{1B}[\(extra)A" }
        drawnLines = lines.count
        write(text)
    }

    private func emitJSON(_ fields: [String: Any?]) {
        guard mode == .json else { return }
        let cleaned = fields.compactMapValues { $0 }
        guard let data = try? JSONSerialization.data(withJSONObject: cleaned, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        write(String(decoding: data, as: UTF8.self) + "\n")
    }
}
