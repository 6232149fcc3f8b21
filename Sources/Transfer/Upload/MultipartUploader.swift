import FileModel
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
        file path: String, fingerprint: FileFingerprint, identity: FileIdentity, to target: UploadTarget,
        options: UploadOptions,
        onEvent: (@Sendable (TransferEvent) -> Void)?
    ) async throws(UploadError) -> UploadResult {
        guard let endpoint = target.multipartEndpoint else { throw .notTus(url: target.tusEndpoint) }
        var machine = machine(for: target)
        var named = target
        var response: HTTPResponse?
        let sent = SentCounter()
        var result = UploadResult(
            path: path, bytes: fingerprint.size, method: .multipart, resumedBytes: 0, sentBytes: 0, uploadURL: nil)
        var action = machine.begin()
        while true {
            let event: MultipartUploadMachine.Event
            switch action {
            case .checkNameIsFree:
                try await checkNameIsFree(path, at: target, endpoint: endpoint)
                event = .nameFree
            case .post(let privateName):
                if privateName { named = Self.privateTarget(target) }
                onEvent?(
                    .started(
                        total: fingerprint.size, partSizes: [fingerprint.size], resumedBytes: 0, method: .multipart))
                let answer = try await post(
                    path, as: named, to: endpoint, identity: identity, size: fingerprint.size, options: options,
                    sent: sent, onEvent: onEvent)
                response = answer
                result.sentBytes = sent.value
                event = .answered(status: answer.status, attempts: answer.attempts)
            case .confirmAnswer:
                result.storedModificationTime = try await confirmAnswer(
                    response!, path: path, size: fingerprint.size, identity: identity, sha256: nil, target: named)
                event = .confirmed
            case .confirmStored:
                try await confirmer!.confirm(path, size: fingerprint.size, identity: identity, at: named)
                event = .confirmed
            case .place:
                try await place(named, as: target, path: path)
                event = .placed
            case .finish:
                return result
            case .fail(.nameNotCarried):
                throw Self.nameNotCarried(path, target)
            case .fail(.lastAnswer):
                guard let response else { throw .notStored(path: path, destination: target.label, detail: "no answer") }
                throw TusUploader.failure("POST", endpoint, response, destination: target.label)
            }
            action = machine.handle(event)
        }
    }

    /// The one POST of the file's form, under `named`'s name; retried whole after a failure the policy calls worth
    /// it (the server writes to a temp file and renames: a repeated POST cannot leave a torn file).
    private func post(
        _ path: String, as named: UploadTarget, to endpoint: String, identity: FileIdentity, size: Int64,
        options: UploadOptions, sent: SentCounter, onEvent: (@Sendable (TransferEvent) -> Void)?
    ) async throws(UploadError) -> HTTPResponse {
        var parts = named.multipartFields.map { HTTPRequest.MultipartPart.field(name: $0.key, value: $0.value) }
        parts.append(
            .file(name: "file", path: path, filename: named.fileName, contentType: "application/octet-stream"))
        var request = HTTPRequest(
            method: "POST", url: endpoint, body: .multipart(parts), credential: named.credential,
            // One whose first attempt was stored but not answered is recognised by the machine (a 409 sent again).
            isIdempotent: true)
        request.maxSendBytesPerSecond = options.bandwidthLimit
        request.beforeLastBodyBytes = {
            (try? identity.check(path)) == nil ? "changed while it was being uploaded" : nil
        }
        do {
            let response = try await http.send(
                request,
                onProgress: { snapshot in onEvent?(.progress(part: 0, done: min(snapshot.sent, size))) },
                onRetry: { attempt, delay, reason in
                    sent.add(size)
                    onEvent?(
                        .retrying(
                            part: 0, attempt: attempt, delay: delay, reason: reason + "; sending the whole file again"))
                })
            sent.add(size)
            return response
        } catch let error as HTTPError {
            if case .cancelled = error { throw .cancelled(path: path) }
            if case .localFile(let file, _) = error, file == path { try identity.check(path) }
            throw .transfer(error)
        } catch {
            throw .cancelled(path: path)
        }
    }

    /// The machine's steps before a POST that cannot be sent twice (a pipe's): the name found free where it must
    /// be, and the name the form carries (the file's, or a private one renamed after).
    private func namedForTheForm(_ target: UploadTarget, path: String, endpoint: String) async throws(UploadError)
        -> UploadTarget
    {
        var machine = machine(for: target)
        var step = machine.begin()
        if step == .checkNameIsFree {
            try await checkNameIsFree(path, at: target, endpoint: endpoint)
            step = machine.handle(.nameFree)
        }
        guard case .post(let privateName) = step else {
            throw Self.nameNotCarried(path, target)
        }
        return privateName ? Self.privateTarget(target) : target
    }

    /// The rules of an upload of `target` on this server.
    private func machine(for target: UploadTarget) -> MultipartUploadMachine {
        MultipartUploadMachine(
            formCarriesName: FileName.formCarries(target.fileName), canConfirm: confirmer != nil,
            mustFindNameFree: target.multipartFields.contains { $0.key == "overwrite" && $0.value == "false" })
    }

    private static func nameNotCarried(_ path: String, _ target: UploadTarget) -> UploadError {
        .notStored(
            path: path, destination: target.label,
            detail: "a multipart form cannot carry this name exactly, and this server cannot rename it after")
    }

    /// The same folder under a private name of plain letters, renamed to the real one once stored
    /// (``place(_:as:path:)``), for a name the form cannot carry exactly (``FileName/formCarries(_:)``).
    private static func privateTarget(_ target: UploadTarget) -> UploadTarget {
        var sent = target
        sent.fileName = ".officer-upload-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        return sent
    }

    /// Gives a file stored under a private name (``privateTarget(_:)``) its real one.
    private func place(_ sent: UploadTarget, as target: UploadTarget, path: String) async throws(UploadError) {
        guard sent.fileName != target.fileName, let confirmer else { return }
        let replacing = target.multipartFields.contains { $0.key == "overwrite" && $0.value == "true" }
        do {
            try await confirmer.rename(storedAs: sent.fileName, to: target, replacing: replacing)
        } catch {
            throw .notStored(
                path: path, destination: target.label,
                detail: "it is stored as \(sent.fileName) beside it, and giving it its name failed (\(error))")
        }
    }

    /// Done when the answer names a stored file of `size` and came at the first attempt, else when the destination,
    /// asked, holds it; returns the time the answer says the server gave the file.
    private func confirmAnswer(
        _ response: HTTPResponse, path: String, size: Int64, identity: FileIdentity?, sha256: String?,
        target: UploadTarget
    ) async throws(UploadError) -> Double? {
        let stored = confirmer?.storedFile(inAnswer: response.body)
        // A name the server changed on the way is no upload of this name (and the next sync would send it again).
        if let name = stored?.name,
            name.precomposedStringWithCanonicalMapping
                != target.fileName.precomposedStringWithCanonicalMapping
        {
            throw .notStored(
                path: path, destination: target.label, detail: "the server stored it as \(FileName.shown(name))")
        }
        if let confirmer, stored?.size != size || response.attempts > 1 {
            try await confirmer.confirm(path, size: size, identity: identity, at: target, sha256: sha256)
        }
        return stored?.mtime
    }

    /// A server may take no `overwrite` field and replace what is there (the seed's upload does): a file is never
    /// replaced without being asked to, so without `overwrite` the name is looked up first.
    private func checkNameIsFree(_ path: String, at target: UploadTarget, endpoint: String) async throws(UploadError) {
        guard let confirmer, target.multipartFields.contains(where: { $0.key == "overwrite" && $0.value == "false" })
        else { return }
        let existing = try await confirmer.ask(
            at: target, withChecksum: false, for: path, question: "whether the name is free")
        if existing != .absent, existing != .unknown {
            throw .server(request: "POST \(endpoint)", status: 409, message: "\(target.label): already exists")
        }
    }

    /// A stream (a pipe) as one multipart POST, chunked: its bytes go as they come, at most a few MiB held. It
    /// cannot be sent twice, so it is never retried; done when the answer names a stored file of the length read
    /// (or the destination, asked, holds it with the SHA-256 computed on the way).
    func upload(
        stream: some AsyncSequence<Data, any Error>, label: String, to target: UploadTarget, options: UploadOptions,
        onEvent: (@Sendable (TransferEvent) -> Void)?
    ) async throws(UploadError) -> UploadResult {
        guard let endpoint = target.multipartEndpoint else { throw .notTus(url: target.tusEndpoint) }
        let sent = try await namedForTheForm(target, path: label, endpoint: endpoint)
        onEvent?(.started(total: nil, partSizes: [], resumedBytes: 0, method: .multipart))
        let body = BodyStream()
        var parts = target.multipartFields.map { HTTPRequest.MultipartPart.field(name: $0.key, value: $0.value) }
        parts.append(
            .stream(name: "file", source: body, filename: sent.fileName, contentType: "application/octet-stream"))
        var request = HTTPRequest(
            method: "POST", url: endpoint, body: .multipart(parts), credential: target.credential, isIdempotent: false)
        request.maxSendBytesPerSecond = options.bandwidthLimit
        let hasher = SHA256Hasher()
        var size: Int64 = 0
        let http = http
        // The request goes in a task of its own while this one reads the stream into the body.
        let sending = Task { () async throws -> HTTPResponse in
            do {
                return try await http.send(
                    request, onProgress: { snapshot in onEvent?(.progress(part: 0, done: snapshot.sent)) })
            } catch {
                body.fail("stopped")
                throw error
            }
        }
        await withTaskCancellationHandler {
            do {
                for try await piece in stream {
                    hasher.update(piece)
                    size += Int64(piece.count)
                    try await body.append(piece)
                }
                body.finish()
            } catch {
                body.fail(Task.isCancelled ? "cancelled" : "the input failed: \(error)")
            }
        } onCancel: {
            body.fail("cancelled")
            sending.cancel()
        }
        let response: HTTPResponse
        do {
            response = try await sending.value
        } catch let error as HTTPError {
            if case .cancelled = error { throw .cancelled(path: label) }
            throw .transfer(error)
        } catch {
            throw .cancelled(path: label)
        }
        let digest = hasher.finalizeHex()
        guard response.isSuccess else {
            throw TusUploader.failure("POST", endpoint, response, destination: target.label)
        }
        var result = UploadResult(
            path: label, bytes: size, method: .multipart, resumedBytes: 0, sentBytes: size, uploadURL: nil,
            sha256: digest)
        result.storedModificationTime = try await confirmAnswer(
            response, path: label, size: size, identity: nil, sha256: digest, target: sent)
        try await place(sent, as: target, path: label)
        return result
    }
}
