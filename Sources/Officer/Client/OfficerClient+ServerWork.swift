import FileModel
import Foundation
import HTTP

extension OfficerClient {
    /// Extracts an archive on the server into a new folder (`POST /api/file-browser/extract`).
    package func extract(_ request: ExtractRequest) async throws(OfficerError) -> JobAnswer<ExtractResponse> {
        try await start("/api/file-browser/extract", body: request, subject: request.path)
    }

    /// Transcodes a video on the server (`POST /api/file-browser/transcode`).
    package func transcode(_ request: TranscodeRequest) async throws(OfficerError) -> JobAnswer<EntryResponse> {
        try await start("/api/file-browser/transcode", body: request, subject: request.path)
    }

    /// Clones a git repository into the server (`POST /api/file-browser/git-clone`).
    package func gitClone(_ request: ServerFetchRequest) async throws(OfficerError) -> JobAnswer<EntryResponse> {
        try await start("/api/file-browser/git-clone", body: request, subject: request.url)
    }

    /// Downloads media into the server with yt-dlp (`POST /api/file-browser/download-video`).
    package func downloadVideo(_ request: ServerFetchRequest) async throws(OfficerError) -> JobAnswer<EntriesResponse> {
        try await start("/api/file-browser/download-video", body: request, subject: request.url)
    }

    /// The seed's `GET /api/file-browser/transcode`: the video as H.264/AAC MP4, streamed as the server makes it
    /// (nothing is stored on the server; no length, no ranges).
    package func transcodeStreamRequest(of video: RemotePath) -> HTTPRequest {
        HTTPRequest(
            url: url("/api/file-browser/transcode", query: [("path", video.path), ("root", video.root)]),
            credential: credential)
    }

    /// The seed's request for one zip of `paths` (all under one root): `POST /api/file-browser/download`, its body
    /// the zip, made as it is asked (no ranges, no validator).
    package func zipRequest(of paths: [RemotePath]) throws(OfficerError) -> HTTPRequest {
        struct Body: Encodable {
            var root: String
            var paths: [String]
        }
        var request = HTTPRequest(method: "POST", url: url("/api/file-browser/download"), credential: credential)
        do {
            let body = Body(root: paths.first?.root ?? RemotePath.defaultRoot, paths: paths.map(\.path))
            request.body = .data(try JSONEncoder().encode(body), contentType: "application/json")
        } catch {
            throw .malformedResponse(request: "POST download", detail: "cannot encode request: \(error)")
        }
        return request
    }

    /// The URL of one zip of `paths` (all under one root), served with ranges and a strong ETag
    /// (`GET /api/file-browser/zip`, proposed).
    package func zipURL(of paths: [RemotePath], name: String? = nil) -> String {
        var query = [("root", paths.first?.root ?? RemotePath.defaultRoot)] + paths.map { ("path", $0.path) }
        if let name { query.append(("name", name)) }
        return url("/api/file-browser/zip", query: query)
    }
}
