import FileModel
import Foundation
import HTTP
import Journal

/// Live offsets of a download's ranges, shared by the transfers that advance them, the journal writer and the
/// digest taken as the bytes land (told each new frontier: the bytes written without a gap from the first).
final class SegmentProgress: Sendable {
    private struct Counts {
        var segments: [TransferJournal.Segment]
        /// Bytes received in this run.
        var refetched: Int64 = 0
        var tail: TailWatch?
    }
    private let counts: LockedValue<Counts>
    /// Held while the offsets are written to the journal, so a snapshot taken earlier is never written after a later one.
    private let journalWrites = LockedValue(())

    private let landing: LandingDigest?
    /// The bytes done when the run began, and in all.
    private let (doneAtStart, total): (Int64, Int64)
    private let tailTime: ClockReading?
    /// Given once, when the bytes still to come would take about one round trip (``TailWatch``), if the tail is
    /// watched; at once when nothing is left.
    let tailReached = WakeSignal()

    /// Progress from `segments`' offsets; with a clock, the tail is watched on it.
    init(
        _ segments: [TransferJournal.Segment], landing: LandingDigest? = nil,
        watchingTailOn clock: (any Clock<Duration>)? = nil
    ) {
        doneAtStart = segments.reduce(0) { $0 + $1.done }
        total = segments.reduce(0) { $0 + $1.length }
        tailTime = clock.map { ClockReading($0) }
        counts = LockedValue(Counts(segments: segments, tail: clock == nil ? nil : TailWatch()))
        self.landing = landing
        landing?.advance(to: Self.frontier(of: segments))
        if clock != nil, doneAtStart >= total { tailReached.fire() }
    }

    /// Where the bytes written without a gap from the file's first byte end: through every whole range from the
    /// first, and the done part of the first range that is not whole.
    static func frontier(of segments: [TransferJournal.Segment]) -> Int64 {
        var frontier: Int64 = 0
        for segment in segments.sorted(by: { $0.start < $1.start }) {
            guard segment.start == frontier else { break }
            frontier = segment.start + segment.done
            if segment.done < segment.length { break }
        }
        return frontier
    }

    var snapshot: [TransferJournal.Segment] { counts.withLock { $0.segments } }
    var fetchedBytes: Int64 { counts.withLock { $0.refetched } }

    func done(_ index: Int) -> Int64 { counts.withLock { $0.segments[index].done } }

    /// Records progress; offsets only move forward, except when an attempt restarts behind what was counted.
    func setDone(_ index: Int, _ done: Int64) {
        let tailNow = counts.withLock { counts in
            counts.segments[index].done = min(done, counts.segments[index].length)
            // Told under the lock: two ranges' updates reach the digest in the order they were made (a frontier
            // seen to go back would start the digest over).
            landing?.advance(to: Self.frontier(of: counts.segments))
            guard var tail = counts.tail, let tailTime else { return false }
            defer { counts.tail = tail }
            let all = counts.segments.reduce(0) { $0 + $1.done }
            return tail.observe(remaining: total - all, received: all - doneAtStart, at: tailTime.seconds)
        }
        if tailNow { tailReached.fire() }
    }

    /// Counts bytes received in this run (an attempt reports its total when it ends).
    func addFetched(_ bytes: Int64) { counts.withLock { $0.refetched += bytes } }

    /// Runs `write` (a snapshot's trip to the journal) while no other does.
    func oneJournalWriteAtATime<Result>(_ write: () throws -> Result) rethrows -> Result {
        try journalWrites.withLock { _ in try write() }
    }

    func markSynced(_ values: [Int64]) {
        counts.withLock { counts in
            for (index, value) in values.enumerated() { counts.segments[index].synced = value }
        }
    }
}
