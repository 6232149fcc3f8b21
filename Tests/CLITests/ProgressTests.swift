import Foundation
import Testing

@testable import OfficerFilesCLI

@Suite struct ProgressFormatterTests {
    @Test func transferLineShowsEverythingAndFitsTheWidth() {
        var item = ProgressItem(id: 0, name: "holiday-video.mp4", done: 45 * 1_048_576, total: 100 * 1_048_576)
        item.rate = 5 * 1_048_576
        let line = ProgressFormatter.transferLine(item, width: 100)
        #expect(line.contains("holiday-video.mp4"))
        #expect(line.contains(" 45%") && line.contains("45.0 MiB / 100 MiB") && line.contains("5.00 MiB/s") && line.contains("ETA 11s"))
        #expect(line.contains("[#########-----------]"))
        #expect(line.count <= 100)
        let narrow = ProgressFormatter.transferLine(item, width: 60)
        #expect(!narrow.contains("[") && narrow.count <= 62)
    }

    @Test func unknownTotalsAndRates() {
        let line = ProgressFormatter.transferLine(ProgressItem(id: 1, name: "stream", done: 1024), width: 80)
        #expect(line.contains("  --") && line.contains("1.00 KiB") && line.contains("-- B/s") && line.contains("ETA --"))
        #expect(line.contains("[..........]"))
    }

    @Test func longNamesKeepBothEnds() {
        let fitted = ProgressFormatter.fit("a-very-long-file-name-indeed.tar.gz", 15)
        #expect(fitted.count == 15 && fitted.hasPrefix("a-very-") && fitted.hasSuffix(".tar.gz") && fitted.contains("…"))
        #expect(ProgressFormatter.fit("short", 8) == "short   ")
    }

    @Test func totalLine() {
        let line = ProgressFormatter.totalLine(
            done: 512 * 1024, total: 2 * 1_048_576, rate: 256 * 1024, filesDone: 1, filesTotal: 3, elapsed: 2)
        #expect(line == "Transferred: 512 KiB / 2.00 MiB, 25%, 256 KiB/s, ETA 6s, 1/3 files, elapsed 2s")
    }

    @Test func bars() {
        #expect(ProgressFormatter.bar(percent: 0, width: 4) == "----")
        #expect(ProgressFormatter.bar(percent: 50, width: 4) == "##--")
        #expect(ProgressFormatter.bar(percent: 100, width: 4) == "####")
    }

    @Test func rateEstimatorUsesAWindow() {
        var estimator = RateEstimator(window: 2)
        #expect(estimator.bytesPerSecond == nil)
        estimator.record(bytes: 0, at: 0)
        estimator.record(bytes: 1000, at: 1)
        #expect(estimator.bytesPerSecond == 1000)
        // A stall: nothing more arrives; the windowed rate falls instead of staying at the average.
        estimator.record(bytes: 1000, at: 3)
        estimator.record(bytes: 1000, at: 4)
        #expect((estimator.bytesPerSecond ?? 1) < 400)
    }
}

@Suite struct ProgressReporterTests {
    final class Sink: @unchecked Sendable {
        let lock = NSLock()
        var text = ""
        var now = 0.0
        func write(_ chunk: String) { lock.withLock { text += chunk } }
    }

    @Test func plainModeWritesASummaryLineEveryInterval() {
        let sink = Sink()
        let reporter = ProgressReporter(mode: .plain(interval: 5), write: sink.write, clock: { sink.lock.withLock { sink.now } })
        let id = reporter.start(name: "a.bin", total: 1000)
        sink.now = 1
        reporter.update(id, done: 100)
        #expect(sink.text.isEmpty)
        sink.now = 6
        reporter.update(id, done: 600)
        #expect(sink.text.components(separatedBy: "\n").filter { !$0.isEmpty }.count == 1)
        #expect(sink.text.contains("600 B / 1000 B, 60%"))
        reporter.finish(id)
        reporter.close()
        #expect(sink.text.hasSuffix("1/1 files, elapsed 6s\n"))
        #expect(!sink.text.contains("\u{1B}"))
    }

    @Test func aRestartedTransferCountsOnce() {
        let sink = Sink()
        let reporter = ProgressReporter(mode: .plain(interval: 5), write: sink.write, clock: { sink.lock.withLock { sink.now } })
        // A download that got 1 MiB, then was restarted twice from zero (the server's file changed).
        var id = reporter.start(name: "f.bin", total: 1 << 20)
        for _ in 0..<2 {
            sink.now += 1
            reporter.update(id, done: 1 << 20)
            reporter.discard(id)
            id = reporter.start(name: "f.bin", total: 1 << 20)
        }
        sink.now += 1
        reporter.update(id, done: 1 << 20)
        reporter.finish(id)
        reporter.close()
        #expect(sink.text.contains("Transferred: 1.00 MiB / 1.00 MiB, 100%"), "\(sink.text)")
        #expect(sink.text.contains("1/1 files"), "\(sink.text)")
    }

    @Test func aMessageIsNeverDrawnOver() {
        let sink = Sink()
        let reporter = ProgressReporter(mode: .terminal(width: 80, color: false), write: sink.write, clock: { sink.lock.withLock { sink.now } })
        let id = reporter.start(name: "big.bin", total: 100)
        reporter.update(id, done: 50)
        reporter.finish(id)
        reporter.message("Uploaded big.bin to officer:/big.bin")
        reporter.close()
        let after = sink.text.components(separatedBy: "Uploaded big.bin to officer:/big.bin\n").last ?? ""
        // Nothing after the message moves the cursor up over it, and the total line is drawn once after it.
        #expect(after.range(of: "\u{1B}\\[[0-9]+A", options: .regularExpression) == nil, "\(after.debugDescription)")
        #expect(after.components(separatedBy: "Transferred:").count == 2, "\(after.debugDescription)")
        // One bar standing for several files counts files, not bars.
        let counted = ProgressReporter(mode: .plain(interval: 5), write: sink.write, clock: { 0 })
        let sync = counted.start(name: "sync", total: 30)
        counted.setFileCounts(done: 3, total: 3)
        counted.finish(sync)
        counted.close()
        #expect(sink.text.hasSuffix("3/3 files, elapsed 0s\n"), "\(sink.text.suffix(80))")
    }

    @Test func terminalModeRedrawsInPlace() {
        let sink = Sink()
        let reporter = ProgressReporter(mode: .terminal(width: 80, color: false), write: sink.write, clock: { sink.lock.withLock { sink.now } })
        let a = reporter.start(name: "a", total: 100)
        let b = reporter.start(name: "b", total: 100)
        reporter.update(a, done: 10)
        sink.now = 1
        reporter.update(b, done: 20)
        // Second frame moves the cursor up over the first frame's three lines.
        #expect(sink.text.contains("\u{1B}[3A"))
        reporter.finish(a)
        reporter.finish(b)
        reporter.close()
        #expect(sink.text.contains("Transferred: 200 B / 200 B, 100%"))
        #expect(!sink.text.contains("\u{1B}[1m"))
    }

    @Test func colorOnlyWhenAllowed() {
        let sink = Sink()
        let reporter = ProgressReporter(mode: .terminal(width: 80, color: true), write: sink.write, clock: { 0 })
        reporter.finish(reporter.start(name: "a", total: 1))
        #expect(sink.text.contains("\u{1B}[1m"))
    }

    @Test func jsonModeEmitsParseableEvents() throws {
        let sink = Sink()
        let reporter = ProgressReporter(mode: .json, write: sink.write, clock: { sink.lock.withLock { sink.now } })
        let id = reporter.start(name: "x", total: 10)
        sink.now = 1
        reporter.update(id, done: 5)
        reporter.finish(id)
        reporter.close()
        let events = try sink.text.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
        #expect(events.map { $0["type"] as? String } == ["start", "progress", "done", "summary"])
        #expect(events[1]["doneBytes"] as? Int == 5 && events[1]["size"] as? Int == 10)
    }

    @Test func offModeWritesNothing() {
        let sink = Sink()
        let reporter = ProgressReporter(mode: .off, write: sink.write)
        reporter.finish(reporter.start(name: "a", total: 1))
        reporter.close()
        #expect(sink.text.isEmpty)
    }
}
