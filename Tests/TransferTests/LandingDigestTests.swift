import Foundation
import Journal
import TestSupport
import Testing

@testable import Transfer

/// The SHA-256 a download takes as its bytes land: the same digest as the whole file read after its last byte,
/// however the ranges' bytes came (out of order, one range written again from further back), and only bytes on the
/// frontier (written without a gap from the first) are hashed before the end.
@Suite struct LandingDigestTests {
    let work = TemporaryDirectory(prefix: "landing-digest")

    func segments(_ total: Int64, parts: Int) -> [TransferJournal.Segment] {
        let size = total / Int64(parts)
        return (0..<parts).map { index in
            let start = Int64(index) * size
            let end = index == parts - 1 ? total - 1 : start + size - 1
            return TransferJournal.Segment(index: index, start: start, end: end, done: 0, synced: 0)
        }
    }

    @Test func theFrontierEndsAtTheFirstGap() {
        var ranges = segments(300, parts: 3)
        #expect(SegmentProgress.frontier(of: ranges) == 0)
        ranges[1].done = 100  // a later range whole, the first not begun: nothing on the frontier
        #expect(SegmentProgress.frontier(of: ranges) == 0)
        ranges[0].done = 40
        #expect(SegmentProgress.frontier(of: ranges) == 40)
        ranges[0].done = 100
        #expect(SegmentProgress.frontier(of: ranges) == 200, "the first range whole runs into the second, whole")
        ranges[2].done = 7
        #expect(SegmentProgress.frontier(of: ranges) == 207)
    }

    @Test func rangesLandingOutOfOrderHashToTheWholeFilesDigest() async throws {
        let total: Int64 = 20_000_003
        let bytes = Data((0..<Int(total)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 13) })
        let path = work.file("partial")
        #expect(FileManager.default.createFile(atPath: path, contents: Data(count: Int(total))))
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? file.close() }
        func land(_ range: Range<Int64>) throws {
            try file.seek(toOffset: UInt64(range.lowerBound))
            file.write(bytes[Int(range.lowerBound)..<Int(range.upperBound)])
        }

        let landing = LandingDigest(path: path)
        let plan = segments(total, parts: 4)
        let progress = SegmentProgress(plan, landing: landing)
        // The last range first, then the first in two steps, one range written again from its start, the rest.
        for (index, upTo) in [(3, plan[3].length), (0, 3_000_000), (1, 2_000_000), (0, plan[0].length)] {
            try land(plan[index].start..<(plan[index].start + upTo))
            progress.setDone(index, upTo)
        }
        try land(plan[1].start..<(plan[1].start + 1_000_000))
        progress.setDone(1, 1_000_000)  // written again from further back: the digest starts over
        for index in [1, 2] {
            try land(plan[index].start..<(plan[index].end + 1))
            progress.setDone(index, plan[index].length)
        }
        let digest = await landing.finish(length: total)
        #expect(digest == (try SHA256Hasher.hash(file: path)))
        let whole = SHA256Hasher()
        whole.update(bytes)
        #expect(digest == whole.finalizeHex())
    }

    @Test func aFileThatCannotBeReadGivesNoDigest() async {
        let landing = LandingDigest(path: work.file("missing"))
        landing.advance(to: 10)
        #expect(await landing.finish(length: 10) == nil)
    }
}
