import FileModel
import Foundation
import HTTP

extension TusUploader {
    /// Bytes per request of a stream upload: what is held in memory twice (the chunk on the wire and the next).
    package static let streamChunkSize = 8 << 20

    /// Uploads a stream of unknown length (a pipe) over tus with `creation-defer-length`: chunks of at most
    /// ``streamChunkSize`` (or ``UploadOptions/chunkSize``; a slow pipe's go after about a second), each with a checksum when the server offers one, the
    /// length told with the last chunk. The server keeps nothing under the target's name until the last byte
    /// arrived. A chunk that fails is sent again from memory after asking the server's offset, so a flaky
    /// network costs a chunk; a stream cannot be read twice, so cancellation or process death ends the upload
    /// (cancelling removes it from the server). `label` names the stream in errors (`-` for stdin).
    package func upload(
        stream: some AsyncSequence<Data, any Error>, label: String, to target: UploadTarget,
        options: UploadOptions = UploadOptions(),
        onEvent: (@Sendable (TransferEvent) -> Void)? = nil
    ) async throws(UploadError) -> UploadResult {
        var uploadURL: String?
        do {
            guard let info = try await discover(target) else {
                return try await withoutTus(target, onEvent: onEvent).upload(
                    stream: stream, label: label, to: target, options: options, onEvent: onEvent)
            }
            guard info.extensions.contains("creation-defer-length") else {
                throw UploadError.lengthRequired(url: target.tusEndpoint)
            }
            let url = try await createDeferred(target: target, label: label, options: options)
            uploadURL = url
            onEvent?(.started(total: nil, partSizes: [], resumedBytes: 0, method: .tus))
            let chunkSize = Int(
                max(
                    Int64(ChunkSizer.floor),
                    min(
                        options.chunkSize ?? Int64(Self.streamChunkSize), chunkCeiling(target.tusEndpoint) ?? .max,
                        512 << 20)))
            let algorithm = options.checksums ? info.checksumAlgorithm : nil
            let whole = SHA256Hasher()
            var chunks = ChunkReader(stream.makeAsyncIterator(), size: chunkSize, label: label)
            var current = try await chunks.next()
            var offset: Int64 = 0
            var sent: Int64 = 0
            while true {
                try Task.checkCancellation()
                // The next chunk is read before this one goes: only then is it known whether this is the last.
                let next = try await chunks.next()
                whole.update(current)
                let isLast = next.isEmpty
                if let limit = info.maxSize, offset + Int64(current.count) > limit {
                    throw UploadError.tooLarge(path: label, size: offset + Int64(current.count), limit: limit)
                }
                let (chunkSent, clean) = try await sendChunk(
                    current, at: offset, total: isLast ? offset + Int64(current.count) : nil, url: url, label: label,
                    algorithm: algorithm, token: target.credential, options: options, onEvent: onEvent)
                sent += chunkSent
                offset += Int64(current.count)
                onEvent?(.progress(part: 0, done: offset))
                if isLast {
                    let digest = whole.finalizeHex()
                    if !clean, let confirmer {
                        try await confirmer.confirm(label, size: offset, identity: nil, at: target, sha256: digest)
                    }
                    return UploadResult(
                        path: label, bytes: offset, method: .tus, resumedBytes: 0, sentBytes: sent, uploadURL: url,
                        sha256: digest)
                }
                current = next
            }
        } catch {
            // A stream is read once: an upload that did not finish cannot be continued, so nothing of it stays.
            if let uploadURL {
                let http = http
                let token = target.credential
                await Task.detached {
                    var request = HTTPRequest(method: "DELETE", url: uploadURL, credential: token)
                    request.headers.add("Tus-Resumable", "1.0.0")
                    _ = try? await http.send(request)
                }.value
            }
            switch error {
            case let error as UploadError: throw error
            case is CancellationError: throw UploadError.cancelled(path: label)
            case HTTPError.cancelled: throw UploadError.cancelled(path: label)
            default: throw UploadError.localFile(path: label, message: "\(error)")
            }
        }
    }

    /// POST with `Upload-Defer-Length: 1`: the upload, its length to come.
    private func createDeferred(target: UploadTarget, label: String, options: UploadOptions) async throws -> String {
        var request = HTTPRequest(
            method: "POST", url: target.tusEndpoint, credential: target.credential, isIdempotent: false)
        request.headers.add("Tus-Resumable", "1.0.0")
        request.headers.add("Upload-Defer-Length", "1")
        request.headers.add("Upload-Metadata", metadataHeader(for: target, file: nil, extra: options.metadata))
        let response = try await sendRetrying(request)
        guard response.status == 201 else {
            throw Self.failure("POST", target.tusEndpoint, response, destination: target.label)
        }
        guard let location = response.headers["Location"], let url = Self.resolve(location, against: target.tusEndpoint)
        else {
            throw UploadError.protocolViolation(request: "POST \(target.tusEndpoint)", detail: "201 without a Location")
        }
        try Self.checkSameOrigin(url, as: target.tusEndpoint)
        return url
    }

    /// PATCHes one chunk held in memory until the server confirms all of it; returns the bytes put on the wire and
    /// whether the server answered the chunk's end cleanly (false: learnt from a `HEAD` or a refusal after a
    /// failure, which the caller confirms another way for the last chunk). A link that drops every connection
    /// after N bytes would never pass a checksummed request larger than N (the server keeps no unverified bytes),
    /// so after a failure that kept nothing, or a body the server found too large, the requests shrink, down to
    /// ``ChunkSizer/floor``.
    private func sendChunk(
        _ chunk: Data, at start: Int64, total: Int64?, url: String, label: String, algorithm: String?,
        token: BearerCredential?,
        options: UploadOptions, onEvent: (@Sendable (TransferEvent) -> Void)?
    ) async throws -> (sent: Int64, clean: Bool) {
        let policy = http.configuration.retry
        var machine = TusStreamMachine(
            start: start, length: Int64(chunk.count), total: total,
            limit: options.maxAttemptsWithoutProgress ?? policy.maxAttemptsWithoutProgress)
        var sent: Int64 = 0
        var last = PatchOutcome.none
        var action = machine.begin()
        while true {
            try Task.checkCancellation()
            let event: TusStreamMachine.Event
            switch action {
            case .send(let from, let to, let withLength, let fresh):
                let piece = chunk.subdata(in: Int(from - start)..<Int(to - start))
                var request = HTTPRequest(
                    method: "PATCH", url: url, body: .data(piece, contentType: "application/offset+octet-stream"),
                    credential: token, isIdempotent: false)
                request.headers.add("Tus-Resumable", "1.0.0")
                request.headers.add("Upload-Offset", String(from))
                if withLength, let total { request.headers.add("Upload-Length", String(total)) }
                if let algorithm { request.headers.add("Upload-Checksum", Self.checksumHeader(algorithm, data: piece)) }
                request.maxSendBytesPerSecond = options.bandwidthLimit
                request.freshConnection = fresh
                let outcome = try await patchPiece(request, from: from, length: Int64(piece.count), onEvent: onEvent)
                sent += outcome.sent
                (event, last) = (outcome.event, outcome.last)
            case .askOffset:
                event = .offsetAnswered(try await head(url, token: token))
            case .wait(let attempt, let reason, let retryAfter):
                let delay = policy.delay(afterAttempt: attempt, retryAfter: retryAfter)
                onEvent?(.retrying(part: 0, attempt: attempt + 1, delay: delay, reason: reason))
                try await http.configuration.clock.sleep(for: .seconds(delay))
                event = .waited
            case .finish(let cleanly):
                return (sent, cleanly)
            case .fail(let failure):
                throw streamFailure(failure, last: last, url: url, label: label)
            }
            let (bodyLimit, next) = machine.handle(event)
            if let bodyLimit {
                onEvent?(
                    .retrying(
                        part: 0, attempt: 1, delay: 0,
                        reason: "the server takes at most \(ByteCountFormat.string(bodyLimit)) per request"))
            }
            action = next
        }
    }

    /// Sends one piece of a stream; what happened, as the machine takes it, with the bytes put on the wire.
    private func patchPiece(
        _ request: HTTPRequest, from: Int64, length: Int64, onEvent: (@Sendable (TransferEvent) -> Void)?
    ) async throws -> (event: TusStreamMachine.Event, last: PatchOutcome, sent: Int64) {
        let policy = http.configuration.retry
        let inFlight = InFlight()
        do {
            let response = try await http.send(
                request, retrying: false,
                onProgress: { snapshot in
                    inFlight.sent = snapshot.sent
                    onEvent?(.progress(part: 0, done: from + snapshot.sent))
                })
            let event = TusStreamMachine.Event.answered(
                status: response.status, uploadOffset: response.headers["Upload-Offset"].flatMap { Int64($0) },
                sent: inFlight.sent, bodyTooLarge: Self.isBodyTooLarge(response, bodyLength: length), seconds: 0,
                verdict: policy.verdict(for: response))
            return (event, .answered(response), inFlight.sent)
        } catch let error as HTTPError {
            if case .cancelled = error { throw CancellationError() }
            return (
                .transportFailed(sent: inFlight.sent, verdict: policy.verdict(for: error)), .transport(error),
                inFlight.sent
            )
        }
    }

    /// A stream chunk's failure in the words of the request it made.
    private func streamFailure(_ failure: TusStreamMachine.Failure, last: PatchOutcome, url: String, label: String)
        -> any Error
    {
        switch (failure, last) {
        case (.lastAnswer, .answered(let response)):
            return Self.failure("PATCH", url, response, destination: label)
        case (.lastTransportError, .transport(let error)):
            return UploadError.transfer(error)
        case (.gaveUp(let attempts, let reason), _):
            return UploadError.transfer(.gaveUp(request: "PATCH \(url)", attempts: attempts, reason: reason))
        case (.checksumRejected(let offset), _):
            return UploadError.checksumRejected(path: label, offset: offset)
        case (.offsetOutsideChunk(let server), _):
            return UploadError.protocolViolation(
                request: "HEAD \(url)", detail: "Upload-Offset \(server) outside the chunk")
        case (.protocolViolation(let detail), _):
            return UploadError.protocolViolation(request: "PATCH \(url)", detail: detail)
        default:
            return UploadError.protocolViolation(request: "PATCH \(url)", detail: "\(failure)")
        }
    }
}

/// Reads an async sequence of byte buffers as chunks of a fixed size (the last shorter, then empty).
struct ChunkReader<Iterator: AsyncIteratorProtocol> where Iterator.Element == Data {
    /// A chunk that has been filling this long, from a slow pipe, goes with what it has: the server then holds
    /// (and the progress shows) the stream's bytes within seconds, not only once `size` bytes came.
    static var fillSeconds: Double { 1 }

    private var iterator: Iterator
    private var pending = Data()
    private var finished = false
    private let size: Int
    private let label: String
    private let clock: @Sendable () -> Double

    init(
        _ iterator: Iterator, size: Int, label: String,
        clock: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }
    ) {
        self.iterator = iterator
        self.size = size
        self.label = label
        self.clock = clock
    }

    /// The next chunk: `size` bytes, or fewer once ``fillSeconds`` passed with at least ``ChunkSizer/floor`` of
    /// them, fewer at the end; empty once the stream is done.
    mutating func next() async throws -> Data {
        let began = clock()
        while pending.count < size, !finished {
            if pending.count >= Int(ChunkSizer.floor), clock() - began >= Self.fillSeconds { break }
            if let piece = try await iterator.next() {
                pending.append(piece)
            } else {
                finished = true
            }
        }
        let count = min(size, pending.count)
        let chunk = pending.prefix(count)
        pending = Data(pending.dropFirst(count))
        return Data(chunk)
    }
}
