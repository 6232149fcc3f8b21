import FileModel
import Foundation
import HTTP

extension OfficerClient {
    /// Sends one file as a chat attachment (`POST /api/upload`, multipart) and returns what the server stored.
    /// Never repeated once its body went (a second POST would store a second attachment); a server without the
    /// endpoint is ``OfficerError/notOffered(request:feature:)``.
    package func uploadAttachment(
        file path: String, name: String, contentType: String, bandwidthLimit: Int64? = nil,
        onProgress: (@Sendable (Int64) -> Void)? = nil
    ) async throws(OfficerError) -> Attachment {
        guard let credential else { throw .notSignedIn(server: server, reason: "not logged in") }
        var request = HTTPRequest(
            method: "POST", url: url("/api/upload"),
            body: .multipart([.file(name: "file", path: path, filename: name, contentType: contentType)]),
            credential: credential, isIdempotent: false)
        request.headers.add("Accept", "application/json")
        request.maxSendBytesPerSecond = bandwidthLimit
        let response: HTTPResponse
        do {
            response = try await http.send(request, onProgress: { onProgress?($0.sent) })
        } catch let error as HTTPError {
            throw .transport(error, subject: path)
        } catch {
            throw .transport(.cancelled(request: "POST " + request.url), subject: path)
        }
        guard response.isSuccess else {
            // Not there (a server older than the seed's list, or a proxy that does not pass it on): not a file's
            // absence.
            if [404, 405, 501].contains(response.status) {
                throw .notOffered(request: "POST " + request.url, feature: "chat attachments")
            }
            throw mapError(response, request: request, subject: path)
        }
        let answer: AttachmentsResponse
        do {
            answer = try JSONDecoder().decode(AttachmentsResponse.self, from: response.body)
        } catch {
            throw .malformedResponse(request: "POST /api/upload", detail: Self.summary(of: error))
        }
        guard answer.attachments.count == 1, let stored = answer.attachments.first else {
            throw .malformedResponse(
                request: "POST /api/upload", detail: "\(answer.attachments.count) attachments for one file")
        }
        return stored
    }
}
