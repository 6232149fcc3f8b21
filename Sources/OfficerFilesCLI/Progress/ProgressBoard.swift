import FileModel
import Foundation
import Transfer

/// What a ``ProgressReporter`` shows and has drawn, changed only while its lock is held: the transfers, their
/// meters, the frame on the terminal, the last line of a log.
struct ProgressBoard {
    let mode: ProgressReporter.Mode
    private let write: @Sendable (String) -> Void
    private let clock: @Sendable () -> Double
    private let started: Double
    private var items: [Int: ProgressItem] = [:]
    private var order: [Int] = []
    private var meters: [Int: ProgressMeter] = [:]
    private var totalMeter: ProgressMeter
    private var nextID = 0
    private var lastDraw = -Double.infinity
    private var drawnLines = 0
    var label = "files"
    private var fileCounts: (done: Int, total: Int)?
    private var expected: (files: Int, bytes: Int64?)?
    private var wrotePlainLines = false

    init(
        mode: ProgressReporter.Mode, write: @escaping @Sendable (String) -> Void,
        clock: @escaping @Sendable () -> Double
    ) {
        self.mode = mode
        self.write = write
        self.clock = clock
        started = clock()
        totalMeter = ProgressMeter(clock: clock)
        totalMeter.begin(total: nil)
        // A plain log gets its first line one interval in: short operations stay silent.
        if case .plain = mode { lastDraw = started }
    }

    /// Registers a transfer and returns its id; `resumed` bytes were in place before this run (they count as
    /// done, never as speed).
    mutating func start(name: String, total: Int64?, resumed: Int64? = 0) -> Int {
        let id = nextID
        nextID += 1
        items[id] = ProgressItem(id: id, name: name, done: resumed ?? 0, total: total)
        order.append(id)
        let meter = ProgressMeter(clock: clock)
        meter.begin(total: total, resumed: resumed)
        meters[id] = meter
        totalMeter.addResumed(resumed ?? 0)
        emitJSON(["type": "start", "id": id, "name": name, "size": total, "resumedBytes": resumed])
        return id
    }

    /// Records bytes done (and the total, once known) for a transfer.
    mutating func update(_ id: Int, done: Int64, total: Int64? = nil) {
        if mode == .off { return }
        guard var item = items[id] else { return }
        let now = clock()
        item.done = done
        if let total { item.total = total }
        if let total { meters[id]?.setTotal(total) }
        meters[id]?.record(done: done)
        item.rate = meters[id]?.snapshot.bytesPerSecond
        items[id] = item
        totalMeter.record(done: items.values.reduce(0) { $0 + $1.done })
        redrawIfDue(now: now, force: false)
    }

    /// Marks a transfer finished.
    mutating func finish(_ id: Int, failed: Bool = false) {
        guard var item = items[id] else { return }
        item.finished = true
        item.failed = failed
        if !failed, let total = item.total { item.done = total }
        items[id] = item
        emitJSON(["type": failed ? "failed" : "done", "id": id, "name": item.name, "doneBytes": item.done])
        redrawIfDue(now: clock(), force: true)
    }

    /// The whole of a batch, before its first file starts: the total line counts toward it from the start.
    mutating func expect(files: Int, bytes: Int64?) {
        expected = (files, bytes)
    }

    /// A transfer's new name (a sync's files in flight).
    mutating func rename(_ id: Int, to name: String) {
        items[id]?.name = name
    }

    /// Bytes a transfer found in place whose parts report them one by one (a resumed download in ranges):
    /// they count as done, never as speed.
    mutating func noteResumed(_ bytes: Int64) {
        totalMeter.addResumed(bytes)
    }

    /// Counts for the total line when one item stands for many files (a sync's bytes in one bar).
    mutating func setFileCounts(done: Int, total: Int) {
        fileCounts = (done, total)
    }

    /// Writes one message line (a result, a warning) without breaking the display: on a terminal the frame is
    /// cleared, the line printed, and the frame drawn again below it, so a redraw never overwrites the message.
    mutating func message(_ line: String) {
        let text = TerminalText.escaped(line, .name) + "\n"
        guard case .terminal = mode, drawnLines > 0 else {
            write(text)
            return
        }
        clearFrame()
        write(text)
        if items.values.contains(where: { !$0.finished }) { redraw(now: clock()) }
    }

    /// Forgets a transfer that starts over under a new id (a download restarted from zero): its bytes leave the
    /// totals and the rate is measured afresh, so a restart neither counts a file twice nor skews the ETA.
    mutating func discard(_ id: Int) {
        guard let item = items.removeValue(forKey: id) else { return }
        order.removeAll { $0 == id }
        meters[id] = nil
        totalMeter.discard(done: item.done)
    }

    /// Ends the display. When everything finished as asked, the command's own result line is the summary: a
    /// terminal's frame is cleared and a log gets no second line. When something did not finish, the last line
    /// says what was done and what was not, with this run's average rate.
    mutating func close() {
        let all = order.compactMap { items[$0] }
        let complete =
            !all.isEmpty && all.allSatisfy { $0.finished && !$0.failed }
            && (fileCounts.map { $0.done == $0.total } ?? true)
        switch mode {
        case .terminal:
            if complete {
                clearFrame()
            } else {
                redraw(now: clock(), final: true)
                drawnLines = 0
            }
        case .plain:
            // A log that showed progress gets the line that ends it; a short run that failed has only its error.
            if !all.isEmpty, !complete, wrotePlainLines { write(summaryLine(now: clock(), final: true) + "\n") }
        case .json:
            let total = totalMeter.snapshot
            emitJSON([
                "type": "summary", "doneBytes": all.reduce(0) { $0 + $1.done }, "resumedBytes": total.resumedBytes,
                "files": all.count, "filesDone": all.filter { $0.finished && !$0.failed }.count,
                "filesFailed": all.filter(\.failed).count,
            ])
        case .off: break
        }
    }

    /// Erases the drawn frame and leaves the cursor where it began.
    private mutating func clearFrame() {
        guard drawnLines > 0 else { return }
        var erase = "\u{1B}[\(drawnLines)A"
        for _ in 0..<drawnLines { erase += "\r\u{1B}[2K\n" }
        erase += "\u{1B}[\(drawnLines)A"
        write(erase)
        drawnLines = 0
    }

    private mutating func redrawIfDue(now: Double, force: Bool) {
        switch mode {
        case .terminal:
            if force || now - lastDraw >= 0.1 { redraw(now: now) }
        case .plain(let interval):
            if now - lastDraw >= interval {
                lastDraw = now
                wrotePlainLines = true
                write(summaryLine(now: now) + "\n")
            }
        case .json:
            if now - lastDraw >= 0.5 || force {
                lastDraw = now
                for id in order where !(items[id]?.finished ?? true) {
                    let item = items[id]!
                    emitJSON([
                        "type": "progress", "id": id, "name": item.name, "doneBytes": item.done,
                        "size": item.total, "bytesPerSecond": item.rate,
                    ])
                }
            }
        case .off: break
        }
    }

    private func summaryLine(now: Double, final: Bool = false) -> String {
        let all = order.compactMap { items[$0] }
        let totals = all.compactMap(\.total)
        let width: Int = if case .terminal(let columns, _) = mode { columns } else { .max }
        // A batch's whole size is known before its first file starts (expect): the total never grows as files start.
        var total = totals.count == all.count ? totals.reduce(0, +) : nil
        if let expectedBytes = expected?.bytes { total = max(expectedBytes, total ?? 0) }
        return ProgressFormatter.totalLine(
            done: all.reduce(0) { $0 + $1.done }, total: total,
            rate: final ? totalMeter.snapshot.averageBytesPerSecond : totalMeter.snapshot.bytesPerSecond,
            filesDone: fileCounts?.done ?? all.filter { $0.finished && !$0.failed }.count,
            filesTotal: fileCounts?.total ?? max(expected?.files ?? 0, all.count),
            filesFailed: all.filter(\.failed).count,
            elapsed: now - started, itemLabel: label, width: width, final: final)
    }

    private mutating func redraw(now: Double, final: Bool = false) {
        guard case .terminal(let width, let color) = mode else { return }
        lastDraw = now
        var lines = order.compactMap { items[$0] }.filter { !$0.finished }.map {
            ProgressFormatter.transferLine($0, width: width)
        }
        let total = summaryLine(now: now, final: final)
        // Cut to the width before the bold codes go in: they take no column.
        let fitted = String(total.prefix(width))
        lines.append(color ? "\u{1B}[1m" + fitted + "\u{1B}[0m" : fitted)
        var text = drawnLines > 0 ? "\u{1B}[\(drawnLines)A" : ""
        for line in lines {
            text += "\r\u{1B}[2K" + (line.hasPrefix("\u{1B}[1m") ? line : String(line.prefix(width))) + "\n"
        }
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
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: cleaned, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return }
        write(String(decoding: data, as: UTF8.self) + "\n")
    }
}
