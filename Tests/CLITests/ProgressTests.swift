import FileModel
import Foundation
import TestSupport
import Testing
import Transfer

@testable import OfficerFilesCLI

@Suite struct ProgressFormatterTests {
    @Test func transferLineShowsEverythingAndFitsTheWidth() {
        var item = ProgressItem(id: 0, name: "holiday-video.mp4", done: 45 * 1_048_576, total: 100 * 1_048_576)
        item.rate = 5 * 1_048_576
        let line = ProgressFormatter.transferLine(item, width: 120)
        #expect(line.contains("holiday-video.mp4"))
        #expect(
            line.contains(" 45%") && line.contains("45.0 MiB /    100 MiB") && line.contains("5.00 MiB/s")
                && line.contains("ETA 11s"), "\(line)")
        #expect(line.contains("[#########-----------]"))
        #expect(line.count <= 120)
        let narrow = ProgressFormatter.transferLine(item, width: 60)
        #expect(!narrow.contains("[") && narrow.count <= 62)
    }

    @Test func unknownTotalsAndRates() {
        let line = ProgressFormatter.transferLine(ProgressItem(id: 1, name: "stream", done: 1024), width: 90)
        #expect(
            line.contains("  --") && line.contains("1.00 KiB") && line.contains("-- B/s") && line.contains("ETA --"))
        #expect(line.contains("[..........]"))
    }

    @Test func longNamesKeepBothEnds() {
        let fitted = ProgressFormatter.fit("a-very-long-file-name-indeed.tar.gz", 15)
        #expect(
            fitted.count == 15 && fitted.hasPrefix("a-very-") && fitted.hasSuffix(".tar.gz") && fitted.contains("…"))
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
        let reporter = ProgressReporter(
            mode: .plain(interval: 5), write: sink.write, clock: { sink.lock.withLock { sink.now } })
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
        // Done as asked: the command's result line is the summary, not a second Transferred line.
        #expect(sink.text.components(separatedBy: "\n").filter { !$0.isEmpty }.count == 1, "\(sink.text)")
        #expect(!sink.text.contains("\u{1B}"))
    }

    @Test func aRestartedTransferCountsOnce() {
        let sink = Sink()
        let reporter = ProgressReporter(
            mode: .plain(interval: 5), write: sink.write, clock: { sink.lock.withLock { sink.now } })
        // A download that got 1 MiB, then was restarted twice from zero (the server's file changed).
        var id = reporter.start(name: "f.bin", total: 1 << 20)
        for _ in 0..<2 {
            sink.now += 1
            reporter.update(id, done: 1 << 20)
            reporter.discard(id)
            id = reporter.start(name: "f.bin", total: 1 << 20)
        }
        sink.now += 10
        reporter.update(id, done: 1 << 20)
        #expect(sink.text.contains("Transferred: 1.00 MiB / 1.00 MiB, 100%"), "\(sink.text)")
        #expect(sink.text.contains("0/1 files"), "\(sink.text)")
    }

    @Test func aMessageIsNeverDrawnOver() {
        let sink = Sink()
        let reporter = ProgressReporter(
            mode: .terminal(width: 80, color: false), write: sink.write, clock: { sink.lock.withLock { sink.now } })
        let id = reporter.start(name: "big.bin", total: 100)
        reporter.update(id, done: 50)
        reporter.finish(id)
        reporter.message("Uploaded big.bin to officer:/big.bin")
        reporter.close()
        let after = sink.text.components(separatedBy: "Uploaded big.bin to officer:/big.bin\n").last ?? ""
        // Nothing after the message moves the cursor up over it, and no second summary follows the result line.
        #expect(after.range(of: "\u{1B}\\[[0-9]+A", options: .regularExpression) == nil, "\(after.debugDescription)")
        #expect(!after.contains("Transferred:"), "\(after.debugDescription)")
        // One bar standing for several files counts files, not bars; a sync that did not do them all says so.
        let counted = ProgressReporter(mode: .plain(interval: 0), write: sink.write, clock: { 0 })
        let sync = counted.start(name: "sync", total: 30)
        counted.update(sync, done: 20)
        counted.setFileCounts(done: 2, total: 3)
        counted.finish(sync, failed: true)
        counted.close()
        #expect(
            sink.text.hasSuffix("Stopped: 20 B / 30 B, 66%, -- B/s, 2/3 files (1 not done), elapsed 0s\n"),
            "\(sink.text.suffix(120))")
    }

    /// Any command's console message goes through the display drawn at the time: the frame is cleared, the line
    /// written, the frame drawn below it. Written beside the frame, the next redraw moved up over it.
    @Test func aConsoleMessageGoesThroughTheDrawnDisplay() throws {
        let sink = Sink()
        var pipeEnds: [Int32] = [0, 0]
        #expect(pipe(&pipeEnds) == 0)
        defer { close(pipeEnds[0]) }
        let console = Console(environment: [:], outputFD: pipeEnds[1], errorFD: pipeEnds[1])
        let reporter = ProgressReporter(
            mode: .terminal(width: 80, color: false), write: sink.write, clock: { sink.lock.withLock { sink.now } })
        console.showMessages(through: reporter)
        let id = reporter.start(name: "big.bin", total: 100)
        reporter.update(id, done: 50)
        let drawn = sink.text
        #expect(drawn.contains("big.bin"))
        console.message("warning: skipped odd.bin")
        let after = String(sink.text.dropFirst(drawn.count))
        let parts = after.components(separatedBy: "warning: skipped odd.bin\n")
        #expect(parts.count == 2, "\(after.debugDescription)")
        #expect(parts[0].contains("\u{1B}[2K"), "the frame is cleared first: \(parts[0].debugDescription)")
        #expect(parts[1].contains("big.bin"), "and drawn again below: \(parts[1].debugDescription)")
        close(pipeEnds[1])
        let direct = FileHandle(fileDescriptor: pipeEnds[0]).readDataToEndOfFile()
        #expect(direct.isEmpty, "nothing went beside the display: \(String(decoding: direct, as: UTF8.self))")
        reporter.close()
    }

    @Test func terminalModeRedrawsInPlace() {
        let sink = Sink()
        let reporter = ProgressReporter(
            mode: .terminal(width: 80, color: false), write: sink.write, clock: { sink.lock.withLock { sink.now } })
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

    /// A file in parts: a part whose bytes are all in leaves the display and counts as done at once, not when the
    /// whole file is ("0/16 parts" while four showed 100 % before); the end finishes only the others, once each.
    @Test func aPartWhoseBytesAreAllInCountsAsDone() throws {
        let sink = Sink()
        let reporter = ProgressReporter(mode: .json, write: sink.write, clock: { 0 })
        let context = CommandContext(
            console: Console(environment: [:]), global: GlobalOptions(ParsedCommand(path: ["get"])),
            environment: [:], configStore: ConfigStore(environment: [:]))
        let display = PartsDisplay(reporter: reporter, name: "o.bin", context: context)
        display.handle(.started(total: 30, partSizes: [10, 10, 10], resumedBytes: 0, method: .ranges))
        display.handle(.progress(part: 1, done: 4))
        display.handle(.progress(part: 1, done: 10))
        display.handle(.progress(part: 1, done: 10))
        display.finish(failed: true)
        let events = try sink.text.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
        let ends = events.filter { $0["type"] as? String != "start" && $0["type"] as? String != "progress" }
        #expect(
            ends.map { "\($0["type"]!) \($0["name"]!)" } == [
                "done o.bin [2/3]", "failed o.bin [1/3]", "failed o.bin [3/3]",
            ], "\(sink.text)")
    }

    @Test func offModeWritesNothing() {
        let sink = Sink()
        let reporter = ProgressReporter(mode: .off, write: sink.write)
        reporter.finish(reporter.start(name: "a", total: 1))
        reporter.close()
        #expect(sink.text.isEmpty)
    }
}

/// What the display says is true: a failed or stopped transfer is not counted done, resumed bytes are not
/// speed, a batch's total is known from the start, and a narrow terminal loses whole fields.
@Suite struct ProgressTruthTests {
    final class Clock: @unchecked Sendable {
        let lock = NSLock()
        var now = 0.0
        var text = ""
        func write(_ chunk: String) { lock.withLock { text += chunk } }
        func read() -> Double { lock.withLock { now } }
    }

    @Test func anInterruptedTransferSaysWhatItDidNot() {
        let clock = Clock()
        let reporter = ProgressReporter(mode: .plain(interval: 1), write: clock.write, clock: clock.read)
        let id = reporter.start(name: "video.mkv", total: 100)
        clock.now = 2
        reporter.update(id, done: 65)
        reporter.finish(id, failed: true)
        reporter.close()
        #expect(clock.text.contains("65 B / 100 B, 65%"), "\(clock.text)")
        #expect(
            clock.text.contains("Stopped: 65 B / 100 B") && clock.text.contains("0/1 files (1 not done)")
                && !clock.text.contains("1/1 files"), "\(clock.text)")
        // A short run that failed before any progress line: only its error is said (the log has no frame to end).
        let quiet = Clock()
        let short = ProgressReporter(mode: .plain(interval: 5), write: quiet.write, clock: quiet.read)
        short.finish(short.start(name: "F", total: 38), failed: true)
        short.close()
        #expect(quiet.text.isEmpty, "\(quiet.text)")
    }

    @Test func resumedBytesAreNeverSpeed() {
        let meter = ProgressMeter(window: 5, clock: { 0 })
        let clock = Clock()
        let timed = ProgressMeter(window: 5, clock: clock.read)
        timed.begin(total: 1000, resumed: 900)
        clock.now = 1
        timed.record(done: 950)
        let progress = timed.snapshot
        #expect(
            progress.bytesPerSecond == 50 && progress.movedBytes == 50 && progress.resumedBytes == 900, "\(progress)")
        #expect(progress.fraction == 0.95 && progress.secondsLeft == 1)
        timed.end(.cancelled)
        #expect(
            timed.snapshot.doneBytes == 950 && timed.snapshot.state == .cancelled && timed.snapshot.secondsLeft == nil)
        meter.begin(total: 10)
        meter.end(.completed)
        #expect(meter.snapshot.doneBytes == 10 && meter.snapshot.fraction == 1)
        // A reporter with a resumed transfer shows this run's rate, not the bytes already there.
        let reporter = ProgressReporter(mode: .plain(interval: 5), write: clock.write, clock: clock.read)
        let id = reporter.start(name: "big.iso", total: 100 << 20, resumed: 90 << 20)
        clock.now = 6
        reporter.update(id, done: (90 << 20) + (5 << 20))
        #expect(clock.text.contains("1.00 MiB/s") && clock.text.contains("95.0 MiB / 100 MiB"), "\(clock.text)")
    }

    @Test func aBatchKnowsItsTotalBeforeItsFirstFile() {
        let clock = Clock()
        let reporter = ProgressReporter(mode: .plain(interval: 1), write: clock.write, clock: clock.read)
        reporter.expect(files: 3, bytes: 300)
        let first = reporter.start(name: "a", total: 100)
        clock.now = 2
        reporter.update(first, done: 50)
        #expect(clock.text.contains("50 B / 300 B, 16%") && clock.text.contains("0/3 files"), "\(clock.text)")
    }

    @Test func theBoldTotalLineIsCutByWhatShows() {
        let clock = Clock()
        let reporter = ProgressReporter(mode: .terminal(width: 60, color: true), write: clock.write, clock: clock.read)
        let id = reporter.start(name: "p.bin", total: 8_000_000)
        clock.now = 3
        reporter.update(id, done: 2_830_000)
        let drawn =
            clock.text.components(separatedBy: "\u{1B}[1m").last?.components(separatedBy: "\u{1B}[0m").first ?? ""
        #expect(drawn.hasSuffix("0/1 files") && drawn.count <= 60, "\(drawn)")
    }

    @Test func aNarrowTerminalLosesWholeFieldsAndNumbersKeepTheirPlace() {
        let line = ProgressFormatter.totalLine(
            done: 45 << 20, total: 343 << 20, rate: 12 * 1_048_576, filesDone: 30, filesTotal: 32, elapsed: 75,
            width: 60)
        #expect(line.count <= 60 && line.hasPrefix("Transferred: 45.0 MiB / 343 MiB, 13%"), "\(line)")
        #expect(!line.contains("ETA") && !line.contains("elapsed"), "the ETA goes first: \(line)")
        let wide = ProgressFormatter.totalLine(
            done: 45 << 20, total: 343 << 20, rate: 12 * 1_048_576, filesDone: 30, filesTotal: 32, elapsed: 75,
            width: 200)
        #expect(wide.contains("ETA") && wide.contains("30/32 files") && wide.contains("elapsed"), "\(wide)")
        var slow = ProgressItem(id: 0, name: "clip.mp4", done: 5, total: 1 << 30)
        slow.rate = 3
        var fast = ProgressItem(id: 0, name: "clip.mp4", done: 900 << 20, total: 1 << 30)
        fast.rate = 120 * 1_048_576
        for width in [100, 80, 60] {
            let a = ProgressFormatter.transferLine(slow, width: width)
            let b = ProgressFormatter.transferLine(fast, width: width)
            #expect(a.count == b.count && a.count <= width, "\(width): \(a) | \(b)")
        }
    }
}

/// The display in a real terminal (tmux): what an interrupted upload leaves on the screen.
@Suite struct TerminalProgressTests {
    let cli = CLIRunner()
    let work = TemporaryDirectory(prefix: "terminal-progress", inMemory: true)

    @Test func anInterruptedPutSaysWhatIsNotDoneInSixtyColumns() async throws {
        let server = try await ReferenceServer.start(inMemory: true)
        #expect(try await cli.login(server).status == 0)
        let file = try work.write("video.mkv", TestBytes.pattern(48 << 20, seed: 253))
        let terminal = try await TerminalSession.start(
            [ProcessRunner.cliPath, "put", "--bwlimit", "256K", "--chunk-size", "1M", file, "officer:/"],
            environment: cli.environment(), columns: 60,
            // Three minutes at 256 KiB/s, interrupted once 2 MiB went: past the first chunk (1 MiB, inside the
            // creation), so the server holds the upload and it pauses (on a quiet machine the first bytes shown came
            // during the creation, and nothing could be kept).
            interruptingOnce: #"^Transferred: ([2-9]|[1-4][0-9])\.[0-9]+ MiB"#)
        let screen = try await terminal.interrupted()
        let shown = screen.joined(separator: "\n")
        #expect(screen.contains("EXIT=130"), "\(shown)")
        let totals = screen.filter { $0.hasPrefix("Transferred:") || $0.hasPrefix("Stopped:") }
        #expect(
            totals.last?.hasPrefix("Stopped: ") == true && totals.last?.contains("0/1 files") == true
                && !shown.contains("1/1 files"), "\(shown)")
        #expect(shown.contains("paused at"), "\(shown)")
        #expect(screen.allSatisfy { $0.count <= 60 }, "\(shown)")
        // The whole fields that fit: bytes and percent always, no field cut in half.
        #expect(
            totals.allSatisfy {
                $0.range(
                    of: #"^(Transferred|Stopped): [0-9.]+ [KMG]?i?B / 48\.0 MiB, [0-9]+%"#, options: .regularExpression)
                    != nil
            }, "\(shown)")
    }

    /// A finished `get` on a terminal ends with its result line and no frame: the line went out beside the frame
    /// and the frame's clearing at the end erased it, leaving the last "Transferred:" line on the screen.
    @Test func aFinishedGetLeavesItsResultLineAndNoFrame() async throws {
        let server = try await ReferenceServer.start(inMemory: true)
        #expect(try await cli.login(server).status == 0)
        _ = try server.root.write("done.bin", TestBytes.pattern(8 << 20, seed: 249))
        for ranges in ["1", "4"] {
            let destination = work.file("done-\(ranges).bin")
            let get = try await TerminalSession.start(
                [ProcessRunner.cliPath, "get", "-x", ranges, "officer:/done.bin", destination],
                environment: cli.environment())
            let screen = try await get.wait(for: "EXIT=", timeout: 120)
            await get.stop()
            let shown = screen.joined(separator: "\n")
            #expect(screen.contains("EXIT=0"), "\(shown)")
            #expect(screen.contains { $0.hasPrefix("Saved \(destination) (8.00 MiB)") }, "\(shown)")
            #expect(!screen.contains { $0.hasPrefix("Transferred:") }, "\(shown)")
        }
    }

    /// Interrupted, a download in parallel ranges and a `sync -P` say what they did not do: never "4/4 parts"
    /// or 100 % for bytes that never came. Each is paced to take minutes (the interrupt comes after its first
    /// bytes): a loaded run once sent Ctrl-C two minutes late, after a 256 KiB/s get had finished.
    @Test func anInterruptedGetAndSyncSayWhatIsNotDone() async throws {
        let server = try await ReferenceServer.start(inMemory: true)
        #expect(try await cli.login(server).status == 0)
        _ = try server.root.write("big.bin", TestBytes.pattern(32 << 20, seed: 251))
        let get = try await TerminalSession.start(
            [ProcessRunner.cliPath, "get", "-x", "4", "--bwlimit", "64K", "officer:/big.bin", work.file("big.bin")],
            environment: cli.environment(), interruptingOnce: TerminalSession.bytesMoved)
        let getScreen = try await get.interrupted()
        let gotShown = getScreen.joined(separator: "\n")
        #expect(getScreen.contains("EXIT=130") && !gotShown.contains("4/4 parts"), "\(gotShown)")
        #expect(
            getScreen.last { $0.hasPrefix("Transferred:") || $0.hasPrefix("Stopped:") }?.hasPrefix("Stopped: ") == true,
            "\(gotShown)")

        let tree = work.file("tree")
        for index in 0..<4 { _ = try work.write("tree/f\(index).bin", Data(repeating: UInt8(index), count: 8 << 20)) }
        let proxy = try await startFaultProxy(
            target: "127.0.0.1:\(server.service.port)", ["--direction", "up", "--throttle", "75000"])
        defer { proxy.stop() }
        let sync = try await TerminalSession.start(
            [ProcessRunner.cliPath, "sync", "-P", tree, "officer:/Tree"],
            environment: cli.environment(["OFFICER_SERVER": proxy.url, "OFFICER_TOKEN": try cli.savedToken()]),
            interruptingOnce: TerminalSession.bytesMoved)
        let syncScreen = try await sync.interrupted()
        let syncShown = syncScreen.joined(separator: "\n")
        #expect(
            syncScreen.contains("EXIT=130") && !syncShown.contains("100%") && !syncShown.contains("4/4 files"),
            "\(syncShown)")
    }
}
