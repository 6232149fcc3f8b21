import Foundation
import TestSupport
import Testing

@testable import HTTP

/// #56 item 1 (part): the URLSession engine sends every body from a file, as a background session can only do:
/// bytes in memory (a JSON request, a tus chunk, an S3 `put(data:)`) are written to a snapshot file first, which
/// goes once the request ends.
@Suite struct SnapshotBodyTests {
    @Test func bytesInMemoryGoFromASnapshotFile() async throws {
        let folder = TemporaryDirectory(prefix: "snapshots")
        let json = Data(#"{"path":"/a b","root":"home"}"#.utf8)
        let request = HTTPRequest(
            method: "POST", url: "http://127.0.0.1:9/api", body: .data(json, contentType: "application/json"))
        let body = try await SnapshotBody(request: request, folder: URL(fileURLWithPath: folder.path))
        guard case .file(let file, let length) = body.source else {
            Issue.record("a body sent from memory")
            return
        }
        #expect(length == Int64(json.count) && body.length == Int64(json.count))
        #expect(try Data(contentsOf: file) == json)
        #expect(body.contentType == "application/json")
        #expect(
            file.deletingLastPathComponent().standardizedFileURL.path
                == URL(fileURLWithPath: folder.path).standardizedFileURL.path)
        body.remove()
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }
}
