import FileModel
import Foundation
import HTTP
import Journal

/// Live offsets of a download's ranges, shared by the transfers that advance them and the journal writer.
final class SegmentProgress: Sendable {
    private struct Counts {
        var segments: [TransferJournal.Segment]
        /// Bytes received in this run.
        var refetched: Int64 = 0
    }
    private let counts: LockedValue<Counts>
    /// Held while the offsets are written to the journal, so a snapshot taken earlier is never written after a later one.
    private let journalWrites = LockedValue(())

    init(_ segments: [TransferJournal.Segment]) { counts = LockedValue(Counts(segments: segments)) }

    var snapshot: [TransferJournal.Segment] { counts.withLock { $0.segments } }
    var fetchedBytes: Int64 { counts.withLock { $0.refetched } }

    func done(_ index: Int) -> Int64 { counts.withLock { $0.segments[index].done } }

    /// Records progress; offsets only move forward, except when an attempt restarts behind what was counted.
    func setDone(_ index: Int, _ done: Int64) {
        counts.withLock { $0.segments[index].done = min(done, $0.segments[index].length) }
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
