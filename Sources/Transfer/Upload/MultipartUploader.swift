import Foundation
import HTTP

/// The fallback for servers without tus: one multipart POST of the whole file. Not resumable; a
/// failed attempt sends the whole file again.
struct MultipartUploader {
    var http: HTTPClient

    func upload(
        file path: String, fingerprint: FileFingerprint, to target: UploadTarget, options: UploadOptions,
        onEvent: (@Sendable (TransferEvent) -> Void)?
    ) async throws(UploadError) -> UploadResult {
        guard let endpoint = target.multipartEndpoint else { throw .notTus(url: target.tusEndpoint) }
        onEvent?(.started(total: fingerprint.size, partSizes: [fingerprint.size], resumedBytes: 0, method: .multipart))
        var parts = target.multipartFields.map { HTTPRequest.MultipartPart.field(name: $0.key, value: $0.value) }
        parts.append(.file(name: "file", path: path, filename: target.fileName, contentType: "application/octet-stream"))
        var request = HTTPRequest(
            method: "POST", url: endpoint, body: .multipart(parts), credential: target.credential,
            // The server writes to a temp file and renames: a repeated POST cannot leave a torn file.
            isIdempotent: true)
        request.maxSendBytesPerSecond = options.bandwidthLimit
        let sent = SentCounter()
        let response: HTTPResponse
        do {
            response = try await http.send(
                request,
                onProgress: { snapshot in onEvent?(.progress(part: 0, done: min(snapshot.sent, fingerprint.size))) },
                onRetry: { attempt, delay, reason in
                    sent.add(fingerprint.size)
                    onEvent?(.retrying(part: 0, attempt: attempt, delay: delay, reason: reason + "; sending the whole file again"))
                })
        } catch let error as HTTPError {
            if case .cancelled = error { throw .cancelled(path: path) }
            throw .transfer(error)
        } catch {
            throw .cancelled(path: path)
        }
        guard response.isSuccess else {
            throw .server(request: "POST \(endpoint)", status: response.status, message: response.errorMessage)
        }
        sent.add(fingerprint.size)
        return UploadResult(
            path: path, bytes: fingerprint.size, method: .multipart, resumedBytes: 0, sentBytes: sent.value, uploadURL: nil)
    }
}
