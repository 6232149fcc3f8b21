import FileModel
import Foundation
import Testing

/// The one rule local paths are kept by: relative to the deepest declared base folder, absolute otherwise,
/// and found again under wherever the folder is declared next.
@Suite struct PathAnchorsTests {
    let anchors = PathAnchors([
        "documents": "/c/A/Documents", "caches": "/c/A/Library/Caches",
        "prepared": "/c/A/Library/Caches/officer/prepared",
    ])

    @Test func aPathIsKeptUnderTheDeepestFolderHoldingIt() {
        #expect(anchors.kept("/c/A/Documents/Photos/a.jpg") == "documents:Photos/a.jpg")
        #expect(anchors.kept("/c/A/Documents") == "documents:")
        #expect(anchors.kept("/c/A/Library/Caches/x") == "caches:x")
        #expect(anchors.kept("/c/A/Library/Caches/officer/prepared/1.jpg") == "prepared:1.jpg", "the nested one wins")
        #expect(anchors.kept("/c/A/Documents/../Documents/./b.txt") == "documents:b.txt")
        #expect(anchors.kept("/c/A/DocumentsOld/a.jpg") == "/c/A/DocumentsOld/a.jpg", "a longer name is another folder")
        #expect(anchors.kept("/elsewhere/a.jpg") == "/elsewhere/a.jpg")
        #expect(PathAnchors().kept("/c/A/Documents/a.jpg") == "/c/A/Documents/a.jpg")
    }

    @Test func aKeptPathIsFoundUnderTheFolderDeclaredNow() {
        let moved = PathAnchors(["documents": "/c/B/Documents/"])
        #expect(moved.path(anchors.kept("/c/A/Documents/Photos/a.jpg")) == "/c/B/Documents/Photos/a.jpg")
        #expect(moved.path("documents:") == "/c/B/Documents")
        #expect(moved.path("/abs/olute") == "/abs/olute")
        #expect(moved.path("caches:x") == nil, "a folder this run does not declare finds nothing")
        #expect(moved.path("no colon") == nil)
    }

    @Test func namesAndFoldersThatCannotBeKeptAreLeftOut() {
        let odd = PathAnchors(["bad:name": "/x", "relative": "x/y", "": "/z", "ok_1.b-c": "/w"])
        #expect(odd.kept("/x/a") == "/x/a")
        #expect(odd.kept("/z/a") == "/z/a")
        #expect(odd.kept("/w/a") == "ok_1.b-c:a")
        #expect(PathAnchors(["bad/name": "/q"]).isEmpty)
    }

    @Test func aFolderReachedThroughALinkIsTheSameFolder() throws {
        let base = NSTemporaryDirectory() + "anchors-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: base + "/real", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: base) }
        try FileManager.default.createSymbolicLink(atPath: base + "/link", withDestinationPath: base + "/real")
        let linked = PathAnchors(["documents": base + "/link"])
        #expect(linked.kept(base + "/real/a.txt") == "documents:a.txt")
        #expect(linked.kept(base + "/link/a.txt") == "documents:a.txt")
        #expect(linked.path("documents:a.txt") == base + "/link/a.txt")
    }
}
