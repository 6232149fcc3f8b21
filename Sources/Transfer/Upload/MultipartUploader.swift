import Foundation
import HTTP

/// The fallback for servers without tus: one multipart POST of the whole file. Not resumable; a failed attempt
/// sends the whole file again. The file is checked before its last bytes go (a file that changed while it was
/// sent is never stored), and the upload counts as done only when the answer names a stored file of its size,
/// or the destination, asked, holds it.
struct MultipartUploader {
    var http: HTTPClient
    var confirmer: (any UploadConfirming)?

    func upload(
        file path: String, fingerprint: FileFingerprint, identity: FileIdentity, to target: UploadTarget, options: UploadOptions,
        onEvent: (@Sendable (TransferEvent) -> Void)?
    ) async throws(UploadError) -> UploadResult {
        guard let endpoint = target.multipartEndpoint else { throw .notTus(url: target.tusEndpoint) }
        if let confirmer, target.multipartFields.contains(where: { $0.key == "overwrite" && $0.value == "false" }) {
            // A server may take no `overwrite` field and replace what is there (the seed's upload does): a file
            // is never replaced without being asked to, so the name is looked up first.
            let existing: StoredFile
            do {
                existing = try await confirmer.stored(at: target, withChecksum: false)
            } catch {
                throw .notStored(path: path, destination: target.label, detail: "could not ask the server whether the name is free (\(error))")
            }
            if existing != .absent, existing != .unknown {
                throw .server(request: "POST \(endpoint)", status: 409, message: "\(target.label): already exists")
            }
        }
        onEvent?(.started(total: fingerprint.size, partSizes: [fingerprint.size], resumedBytes: 0, method: .multipart))
        var parts = target.multipartFields.map { HTTPRequest.MultipartPart.field(name: $0.key, value: $0.value) }
        parts.append(.file(name: "file", path: path, filename: target.fileName, contentType: "application/octet-stream"))
        var request = HTTPRequest(
            method: "POST", url: endpoint, body: .multipart(parts), credential: target.credential,
            // The server writes to a temp file and renames: a repeated POST cannot leave a torn file. One whose
            // first attempt was stored but not answered is recognised below.
            isIdempotent: true)
        request.maxSendBytesPerSecond = options.bandwidthLimit
        request.beforeLastBodyBytes = { (try? identity.check(path)) == nil ? "changed while it was being uploaded" : nil }
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
            if case .localFile(let file, _) = error, file == path { try identity.check(path) }
            throw .transfer(error)
        } catch {
            throw .cancelled(path: path)
        }
        sent.add(fingerprint.size)
        var result = UploadResult(
            path: path, bytes: fingerprint.size, method: .multipart, resumedBytes: 0, sentBytes: sent.value, uploadURL: nil)
        guard response.isSuccess else {
            if response.status == 409, response.attempts > 1, let confirmer {
                // Tried again after a failure, and the name is taken now: the first attempt may have stored it.
                try await confirmer.confirm(path, size: fingerprint.size, identity: identity, at: target)
                return result
            }
            throw TusUploader.failure("POST", endpoint, response, destination: target.label)
        }
        let stored = confirmer?.storedFile(inAnswer: response.body)
        if let confirmer, stored?.size != fingerprint.size || response.attempts > 1 {
            try await confirmer.confirm(path, size: fingerprint.size, identity: identity, at: target)
        }
        result.storedModificationTime = stored?.mtime
        return result
    }
}
