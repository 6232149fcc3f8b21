import Foundation
import HTTP
import Journal

/// Live offsets of a download's ranges, shared by the transfers that advance them and the journal writer.
final class SegmentProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var segments: [TransferJournal.Segment]
    private var refetched: Int64 = 0  // bytes received in this run

    init(_ segments: [TransferJournal.Segment]) { self.segments = segments }

    var snapshot: [TransferJournal.Segment] { lock.withLock { segments } }
    var fetchedBytes: Int64 { lock.withLock { refetched } }

    func done(_ index: Int) -> Int64 { lock.withLock { segments[index].done } }

    /// Records progress; offsets only move forward, except when an attempt restarts behind what was counted.
    func setDone(_ index: Int, _ done: Int64) {
        lock.withLock { segments[index].done = min(done, segments[index].length) }
    }

    /// Counts bytes received in this run (an attempt reports its total when it ends).
    func addFetched(_ bytes: Int64) { lock.withLock { refetched += bytes } }

    func markSynced(_ values: [Int64]) {
        lock.withLock { for (index, value) in values.enumerated() { segments[index].synced = value } }
    }
}
