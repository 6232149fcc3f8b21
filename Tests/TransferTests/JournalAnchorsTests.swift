import FileModel
import Foundation
import Journal
import TestSupport
import Testing
import Transfer

/// Records an older build (or a run declaring no folders) kept by absolute path are found by a run that
/// declares base folders, and replaced by their kept form: never two records of one transfer.
@Suite struct JournalAnchorsTests {
    let work = TemporaryDirectory(prefix: "journal-anchors")

    func download(_ destination: String) -> TransferJournal.Download {
        TransferJournal.Download(
            destination: destination, url: "http://127.0.0.1:1/a", tempPath: destination + ".part", etag: "\"e\"",
            lastModified: nil, total: 10, bootID: TransferJournal.currentBootID,
            segments: [TransferJournal.Segment(index: 0, start: 0, end: 9, done: 4, synced: 4)])
    }

    /// The rows of transfers of `kind` as stored, whatever form they are kept under.
    func count(_ journal: TransferJournal, _ kind: TransferJournal.StateKind) throws -> Int64 {
        try journal.withDatabase { database throws(SQLiteError) in
            try database.query("SELECT count(*) FROM transfers WHERE kind = ?", [.text(kind.rawValue)]).first?.first?
                .int ?? -1
        }
    }

    @Test func anAbsoluteDownloadRecordIsFoundAndReplacedByItsKeptForm() throws {
        let documents = work.file("Documents")
        let destination = documents + "/a.bin"
        try TransferJournal(path: work.file("journal.sqlite")).save(download(destination))

        let journal = try TransferJournal(
            path: work.file("journal.sqlite"), anchors: PathAnchors(["documents": documents]))
        #expect(try journal.download(for: destination)?.segments.first?.done == 4)
        try journal.updateProgress(destination: destination, [(index: 0, done: 6, synced: nil)])
        #expect(try journal.download(for: destination)?.segments.first?.done == 6, "progress reaches the old record")
        try journal.save(download(destination))
        #expect(try count(journal, .download) == 1)
        let kept = try journal.withDatabase { database throws(SQLiteError) in
            try database.query(
                "SELECT key, json_extract(state, '$.destination'), json_extract(state, '$.tempPath') FROM transfers"
            ).first
        }
        #expect(kept == [.text("documents:a.bin"), .text("documents:a.bin"), .text("documents:a.bin.part")])
        try journal.remove(destination: destination)
        #expect(try count(journal, .download) == 0)
    }

    @Test func anUploadUnderAFolderThisRunDoesNotDeclareIsKeptButNotListed() throws {
        let documents = work.file("Documents")
        let path = try work.write("Documents/u.bin", "0123456789")
        let target = UploadTarget.tus(url: "http://127.0.0.1:1/files/", fileName: "u.bin")
        let key = TransferJournal.uploadKey(path: path, target: target)
        let anchored = try TransferJournal(
            path: work.file("journal.sqlite"), anchors: PathAnchors(["documents": documents]))
        try anchored.save(
            TransferJournal.Upload(
                key: key, localPath: path, label: target.label, target: target,
                fingerprint: try FileFingerprint(path: path), parts: []))
        #expect(try anchored.upload(key: key)?.fingerprint.path == path)

        let elsewhere = try TransferJournal(path: work.file("journal.sqlite"))
        #expect(try elsewhere.uploads() == [])
        #expect(try count(elsewhere, .tusUpload) == 1, "the record waits for a run that declares its folder")
        let moved = try TransferJournal(
            path: work.file("journal.sqlite"), anchors: PathAnchors(["documents": work.file("Moved")]))
        #expect(try moved.uploads().map(\.localPath) == [work.file("Moved") + "/u.bin"])
    }
}
