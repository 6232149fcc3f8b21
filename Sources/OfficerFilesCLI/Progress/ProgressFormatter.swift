import FileModel

/// Pure text for the progress display: the lines rclone -P users expect, sized to a terminal width.
public enum ProgressFormatter {
    /// One active transfer: name, bar, percent, bytes, rate, ETA — fitted to `width` columns.
    public static func transferLine(_ item: ProgressItem, width: Int) -> String {
        let percent = item.percent.map { pad(String($0), 3) + "%" } ?? "  --"
        let amount = ByteCountFormat.string(item.done) + (item.total.map { " / " + ByteCountFormat.string($0) } ?? "")
        let rate = item.rate.map(ByteCountFormat.rate) ?? "-- B/s"
        let eta = "ETA " + (item.secondsLeft.map { DurationFormat.string(seconds: $0) } ?? "--")
        let tail = "  \(percent)  \(amount)  \(rate)  \(eta)"
        let barWidth = width >= 100 ? 20 : (width >= 80 ? 10 : 0)
        let bar = barWidth > 0 ? "  [" + self.bar(percent: item.percent, width: barWidth) + "]" : ""
        let nameWidth = max(8, width - tail.count - bar.count - 2)
        return "  " + fit(TerminalText.escaped(item.name), nameWidth) + bar + tail
    }

    /// The total line: bytes, percent, rate, ETA and item counts (files, or parts of one file) over all transfers.
    public static func totalLine(
        done: Int64, total: Int64?, rate: Double?, filesDone: Int, filesTotal: Int, elapsed: Double, itemLabel: String = "files"
    ) -> String {
        var parts = [ByteCountFormat.string(done) + (total.map { " / " + ByteCountFormat.string($0) } ?? "")]
        if let total, total > 0 { parts.append("\(Int(min(100, Double(done) * 100 / Double(total))))%") }
        parts.append(rate.map(ByteCountFormat.rate) ?? "-- B/s")
        if let total, let rate, rate > 0 {
            parts.append("ETA " + DurationFormat.string(seconds: Double(max(0, total - done)) / rate))
        } else {
            parts.append("ETA --")
        }
        parts.append("\(filesDone)/\(filesTotal) \(itemLabel)")
        parts.append("elapsed " + DurationFormat.string(seconds: elapsed))
        return "Transferred: " + parts.joined(separator: ", ")
    }

    /// `#####-----` for a percentage; an unknown percentage gives a dotted bar.
    public static func bar(percent: Int?, width: Int) -> String {
        guard let percent else { return String(repeating: ".", count: width) }
        let filled = min(width, percent * width / 100)
        return String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
    }

    /// Shortens `text` to `width` columns, keeping its start and end (`very-lo…me.bin`).
    public static func fit(_ text: String, _ width: Int) -> String {
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
