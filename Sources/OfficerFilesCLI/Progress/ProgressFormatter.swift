import FileModel

/// Pure text for the progress display: the lines rclone -P users expect, sized to a terminal width.
package enum ProgressFormatter {
    /// One active transfer: name, bar, percent, bytes, rate, ETA — fitted to `width` columns. Every number has a
    /// field of fixed width, so the line does not shift as the numbers change; a narrow terminal loses whole
    /// fields (the bar, then the ETA, then the rate), never half of one.
    package static func transferLine(_ item: ProgressItem, width: Int) -> String {
        let percent = item.percent.map { pad(String($0), 3) + "%" } ?? "  --"
        let amount =
            pad(ByteCountFormat.string(item.done), 10)
            + (item.total.map { " / " + pad(ByteCountFormat.string($0), 10) } ?? "")
        let rate = pad(item.rate.map(ByteCountFormat.rate) ?? "-- B/s", 12)
        let eta = "ETA " + pad(item.secondsLeft.map { DurationFormat.string(seconds: $0) } ?? "--", 7, left: true)
        var fields = [percent, amount, rate, eta]
        let barWidth = width >= 120 ? 20 : (width >= 90 ? 10 : 0)
        let bar = barWidth > 0 ? "  [" + self.bar(percent: item.percent, width: barWidth) + "]" : ""
        // The name keeps at least 8 columns: fields go first, from the least needed.
        while fields.count > 2, 2 + 8 + bar.count + fields.reduce(0, { $0 + 2 + $1.count }) > width {
            fields.remove(at: fields.count == 4 ? 3 : 2)
        }
        let tail = fields.map { "  " + $0 }.joined()
        let nameWidth = max(8, width - tail.count - bar.count - 2)
        return "  " + fit(TerminalText.escaped(item.name), nameWidth) + bar + tail
    }

    /// The total line: bytes, percent, rate, ETA and item counts (files, or parts of one file) over all
    /// transfers, in at most `width` columns: the ETA goes first, then the rate, then the counts; bytes and
    /// percent stay.
    package static func totalLine(
        done: Int64, total: Int64?, rate: Double?, filesDone: Int, filesTotal: Int, filesFailed: Int = 0,
        elapsed: Double,
        itemLabel: String = "files", width: Int = .max, final: Bool = false
    ) -> String {
        let amount = ByteCountFormat.string(done) + (total.map { " / " + ByteCountFormat.string($0) } ?? "")
        let percent = total.flatMap { $0 > 0 ? "\(Int(min(100, Double(done) * 100 / Double($0))))%" : nil }
        let rateText = rate.map(ByteCountFormat.rate) ?? "-- B/s"
        let eta =
            "ETA "
            + ((total.flatMap { total in rate.flatMap { $0 > 0 ? Double(max(0, total - done)) / $0 : nil } }).map {
                DurationFormat.string(seconds: $0)
            } ?? "--")
        let counts = "\(filesDone)/\(filesTotal) \(itemLabel)"
        let notDone = filesFailed > 0 ? " (\(filesFailed) not done)" : ""
        let elapsedText = "elapsed " + DurationFormat.string(seconds: elapsed)
        // A run that ended short says so first: whatever else a narrow line loses, not that.
        let lead = final && filesFailed > 0 ? "Stopped: " : "Transferred: "
        // Shown in this order; dropped, when the line is too long, in the order of `dropped`. A run that ended
        // has no time left to tell, and its rate is this run's average.
        var optional: [(key: String, text: String)] =
            [("rate", rateText)] + (final ? [] : [("eta", eta)]) + [
                ("counts", counts + notDone), ("elapsed", elapsedText),
            ]
        func line() -> String {
            lead + ([amount] + (percent.map { [$0] } ?? []) + optional.map(\.text)).joined(separator: ", ")
        }
        for dropped in ["elapsed", "eta", "rate", "notDone", "counts"] where line().count > width {
            if dropped == "notDone", let index = optional.firstIndex(where: { $0.key == "counts" }) {
                optional[index].text = counts
            } else {
                optional.removeAll { $0.key == dropped }
            }
        }
        return line()
    }

    /// `#####-----` for a percentage; an unknown percentage gives a dotted bar.
    package static func bar(percent: Int?, width: Int) -> String {
        guard let percent else { return String(repeating: ".", count: width) }
        let filled = min(width, percent * width / 100)
        return String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
    }

    /// Shortens `text` to `width` columns, keeping its start and end (`very-lo…me.bin`).
    package static func fit(_ text: String, _ width: Int) -> String {
        if text.count <= width { return pad(text, width, left: true) }
        guard width > 3 else { return String(text.prefix(width)) }
        let head = (width - 1) / 2
        let tail = width - 1 - head
        return String(text.prefix(head)) + "…" + String(text.suffix(tail))
    }

    private static func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return left ? text + padding : padding + text
    }
}
