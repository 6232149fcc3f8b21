import FileModel
import Foundation
import Testing

/// The rules a queue replay orders and checks writes by.
@Suite struct QueuedWriteTests {
    @Test func writesOverlapOnTheSamePathOrOneInsideTheOther() {
        let move = QueuedWrite(kind: .move, root: "home", path: "/docs/a.txt", destination: "/archive/a.txt")
        #expect(move.overlaps(QueuedWrite(kind: .remove, root: "home", path: "/docs/a.txt")))
        #expect(move.overlaps(QueuedWrite(kind: .remove, root: "home", path: "/archive", recursive: true)))
        #expect(move.overlaps(QueuedWrite(kind: .makeFolder, root: "home", path: "/docs")))
        #expect(
            !move.overlaps(QueuedWrite(kind: .remove, root: "home", path: "/docs/a.txt.bak")),
            "a longer name is another path")
        #expect(!move.overlaps(QueuedWrite(kind: .remove, root: "other", path: "/docs/a.txt")), "another root")
        #expect(move.summary == "mv officer:/docs/a.txt officer:/archive/a.txt")
        #expect(QueuedWrite(kind: .remove, root: "dev", path: "/x", recursive: true).summary == "rm -r officer:dev:/x")
    }

    @Test func aVersionMatchesToTheMillisecondTheServerKeeps() {
        let seen = PathState.file(size: 10, mtime: 1_700_000_000.123)
        #expect(seen.matches(.file(size: 10, mtime: 1_700_000_000.1234)))
        #expect(!seen.matches(.file(size: 11, mtime: 1_700_000_000.123)))
        #expect(!seen.matches(.file(size: 10, mtime: 1_700_000_001.123)))
        #expect(!seen.matches(.absent) && PathState.absent.matches(.absent))
        #expect(!seen.matches(.folder(mtime: 1_700_000_000.123)))
        let coded = try? JSONDecoder().decode(
            QueuedWrite.self,
            from: JSONEncoder().encode(
                QueuedWrite(
                    kind: .upload, root: "home", path: "/a", local: "/tmp/a",
                    expectations: [PathExpectation(path: "/a", state: seen)])))
        #expect(coded?.expectations.first?.state == seen)
    }
}
