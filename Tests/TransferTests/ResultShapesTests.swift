import FileModel
import Foundation
import Preview
import TestSupport
import Testing
import Transfer

/// #56 item 7: what an app shows comes in its platform's shapes: local results as file URLs, times as `Date`,
/// the same instants and files as the seconds and paths they stand beside.
@Suite struct ResultShapesTests {
    @Test func localResultsAreFileURLsAndTimesAreDates() {
        let entry = RemoteEntry(location: .local("/tmp/a.txt"), name: "a.txt", kind: .file, mtime: 1_764_900_000.25)
        #expect(entry.modificationDate == Date(timeIntervalSince1970: 1_764_900_000.25))
        #expect(RemoteEntry(location: .local("/tmp/b"), name: "b", kind: .file).modificationDate == nil)
        let listing = RemoteListing(location: .local("/tmp"), entries: [entry], listedAt: 1_764_800_000)
        #expect(listing.listedDate == Date(timeIntervalSince1970: 1_764_800_000))
        #expect(RemoteListing(location: .local("/tmp"), entries: []).listedDate == nil)

        let download = DownloadResult(path: "/tmp/folder/a b.bin", bytes: 3)
        #expect(download.fileURL == URL(fileURLWithPath: "/tmp/folder/a b.bin"))
        #expect(download.fileURL.lastPathComponent == "a b.bin")
        var upload = UploadResult(path: "/tmp/up.jpg", bytes: 3, method: .tus)
        upload.storedModificationTime = 1_764_700_000.5
        #expect(upload.fileURL.path == "/tmp/up.jpg")
        #expect(upload.storedModificationDate == Date(timeIntervalSince1970: 1_764_700_000.5))
        let prepared = PreparedImage(
            path: "/tmp/p.jpg", format: .jpeg, width: 1, height: 1, bytes: 1, usedOriginal: false)
        #expect(prepared.fileURL.path == "/tmp/p.jpg")
    }

    @Test func aFileFactsTimeIsADate() throws {
        let work = TemporaryDirectory(prefix: "shapes")
        let path = try work.write("n.txt", "note\n")
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_700_000_000)], ofItemAtPath: path)
        let facts = try FileFacts.local(path)
        #expect(facts.modificationDate == Date(timeIntervalSince1970: 1_700_000_000))
    }
}
