import FileModel
import Foundation
import Testing

/// The job model as the contract writes it, and the names extraction folders get.
@Suite struct JobMessageTests {
    @Test func decodesAJobAndItsResultByKind() throws {
        let text = """
            {"job": {"id": "ab12", "kind": "extract", "target": "/a.zip", "state": "done", "created": 1.5, "updated": 2.5,
             "revision": 4, "progress": {"done": 300, "total": 300, "unit": "bytes", "message": "done"},
             "result": {"entry": {"name": "a", "path": "/a", "type": "directory", "size": 0, "mtime": 1.0, "mode": 493},
                        "extracted": 2}}}
            """
        let job = try JSONDecoder().decode(JobEnvelope.self, from: Data(text.utf8)).job
        #expect(job.state == .done && job.state.isFinal && job.revision == 4)
        #expect(job.progress.fraction == 1)
        #expect(job.result(as: ExtractResponse.self)?.extracted == 2)
        #expect(job.createdEntries.map(\.path) == ["/a"])
        #expect(job.result(as: AITextResponse.self) == nil, "a result of another shape is not forced into one")
        // Encoded and decoded again, nothing is lost (the result is kept as JSON).
        let again = try JSONDecoder().decode(Job.self, from: JSONEncoder().encode(job))
        #expect(again == job)
    }

    @Test func aFailedJobCarriesTheServersError() throws {
        let text = """
            {"id": "x", "kind": "git-clone", "target": "http://10.0.0.1/r.git", "state": "failed", "revision": 2,
             "progress": {"done": 0, "total": null, "unit": "percent", "message": "connecting"},
             "error": {"status": 403, "code": "forbidden_address", "message": "10.0.0.1 a private address"}}
            """
        let job = try JSONDecoder().decode(Job.self, from: Data(text.utf8))
        #expect(job.state == .failed && job.error?.code == "forbidden_address" && job.error?.status == 403)
        #expect(job.progress.fraction == nil && job.createdEntries.isEmpty)
        #expect(!JobState.running.isFinal && !JobState.queued.isFinal && JobState.cancelled.isFinal)
    }

    @Test func archivesExtractIntoFoldersNamedAfterThem() {
        #expect(ArchiveName.folderName(for: "photos.zip") == "photos")
        #expect(ArchiveName.folderName(for: "logs.tar.gz") == "logs")
        #expect(ArchiveName.folderName(for: "Backup.TGZ") == "Backup")
        #expect(ArchiveName.folderName(for: "a.b.tar.xz") == "a.b")
        #expect(ArchiveName.folderName(for: ".zip") == ".zip.contents")
        #expect(ArchiveName.folderName(for: "notes") == "notes.contents")
    }
}
