import FileModel
import Foundation
import HTTP

extension SegmentedDownloader {
    /// Streams `url` to an open descriptor (stdout for `cat`), resuming after network failures with
    /// `Range` + `If-Range` from exactly the bytes already written, so the output is never duplicated or garbled.
    /// Returns the bytes written.
    package func stream(
        from url: String, credential: BearerCredential?, to fileDescriptor: Int32, bandwidthLimit: Int64? = nil,
        onProgress: (@Sendable (_ written: Int64, _ total: Int64?) -> Void)? = nil
    ) async throws(DownloadError) -> Int64 {
        try await stream(
            from: url, credential: credential, to: fileDescriptor, copy: nil, ifNoneMatch: nil,
            bandwidthLimit: bandwidthLimit,
            onProgress: onProgress
        ).written
    }

    /// Streams `url` to `fileDescriptor` like ``stream(from:credential:to:bandwidthLimit:onProgress:)``, also copying
    /// the bytes to `copy` (a cache entry being filled, abandoned past `limit`), and asking with `If-None-Match`
    /// first: a `304` writes nothing and reports ``StreamOutcome/notModified``. `digest` hears every byte written to
    /// `fileDescriptor`, in order, across the attempts (what the caller checks the output by: it cannot be read back).
    package func stream(
        from url: String, credential: BearerCredential?, to fileDescriptor: Int32,
        copy: (descriptor: Int32, limit: Int64)?,
        ifNoneMatch: String?, bandwidthLimit: Int64? = nil, requireLength: Bool = false, digest: RunningDigest? = nil,
        onProgress: (@Sendable (_ written: Int64, _ total: Int64?) -> Void)? = nil
    ) async throws(DownloadError) -> StreamOutcome {
        let target = StreamTarget(
            url: url, credential: credential, fileDescriptor: fileDescriptor, copy: copy,
            bandwidthLimit: bandwidthLimit,
            requireLength: requireLength, digest: digest, onProgress: onProgress)
        let policy = http.configuration.retry
        var machine = ResumingStreamMachine(
            ifNoneMatch: ifNoneMatch, preferIfMatch: rangeCondition == .ifMatch,
            limit: policy.maxAttemptsWithoutProgress)
        var lastFailure: DownloadError?
        var action = machine.begin()
        do {
            while true {
                try Task.checkCancellation()
                let event: ResumingStreamMachine.Event
                switch action {
                case .send(let from, let condition):
                    (event, lastFailure) = try await streamAttempt(
                        from: from, condition: condition, total: machine.learnt?.total, target: target)
                case .wait(let attempt, _, let retryAfter):
                    let delay = policy.delay(afterAttempt: attempt, retryAfter: retryAfter)
                    try await http.configuration.clock.sleep(for: .seconds(delay))
                    event = .waited
                case .finish(let outcome):
                    return outcome
                case .fail(let failure):
                    throw streamFailure(failure, last: lastFailure, url: url)
                }
                action = machine.handle(event)
            }
        } catch let error as DownloadError {
            throw error
        } catch {
            throw .transfer(.cancelled(request: "GET \(URLRedaction.redacted(url))"))
        }
    }

    /// Where a stream goes and who hears of it.
    private struct StreamTarget: Sendable {
        var url: String
        var credential: BearerCredential?
        var fileDescriptor: Int32
        var copy: (descriptor: Int32, limit: Int64)?
        var bandwidthLimit: Int64?
        var requireLength: Bool
        var digest: RunningDigest?
        var onProgress: (@Sendable (_ written: Int64, _ total: Int64?) -> Void)?
    }

    /// One GET of the stream from byte `from`: what happened, as the machine's event, and the error it is if it ends
    /// the stream.
    private func streamAttempt(
        from written: Int64, condition: ResumingStreamMachine.Condition?, total: Int64?, target: StreamTarget
    ) async throws -> (event: ResumingStreamMachine.Event, failure: DownloadError?) {
        let attempt = StreamAttempt()
        var request = streamRequest(from: written, condition: condition, target: target)
        let requireLength = target.requireLength
        request.responseCheck = { status, headers in
            // Learnt before the first body byte, so a failure mid-stream can still resume.
            if status == 200, written == 0 { attempt.learn(from: headers) }
            return ResumingStreamMachine.refusal(
                status: status, headers: headers, written: written, total: total, requireLength: requireLength)
        }
        let policy = http.configuration.retry
        let onProgress = target.onProgress
        do {
            let response = try await http.send(
                request, retrying: false,
                onProgress: { snapshot in
                    attempt.wrote = snapshot.written
                    onProgress?(written + snapshot.written, total ?? snapshot.expectedReceive.map { written + $0 })
                })
            let event = ResumingStreamMachine.Event.answered(
                status: response.status, wrote: attempt.wrote, learnt: attempt.learnt, etag: response.headers["ETag"],
                verdict: policy.verdict(for: response))
            let failure = DownloadError.server(
                url: URLRedaction.redacted(target.url), status: response.status, message: response.errorMessage)
            return (event, failure)
        } catch let error as HTTPError {
            if case .rejected(_, let status, let why) = error { return (.refused(status: status, reason: why), nil) }
            let event = ResumingStreamMachine.Event.transportFailed(
                wrote: attempt.wrote, learnt: attempt.learnt, verdict: policy.verdict(for: error))
            return (event, .transfer(error))
        }
    }

    /// The GET of the stream from byte `from` with `condition`, into the output (and its copy).
    private func streamRequest(
        from written: Int64, condition: ResumingStreamMachine.Condition?, target: StreamTarget
    ) -> HTTPRequest {
        let sink: HTTPRequest.Sink =
            if let copy = target.copy {
                .streamWithCopy(
                    fileDescriptor: target.fileDescriptor, copyDescriptor: copy.descriptor, copyLimit: copy.limit)
            } else { .stream(fileDescriptor: target.fileDescriptor) }
        var request = HTTPRequest(url: target.url, sink: sink, credential: target.credential, redirects: .anyOrigin)
        request.maxReceiveBytesPerSecond = target.bandwidthLimit
        if let digest = target.digest { request.onStoredBytes = { digest.update($0) } }
        if written > 0 { request.headers.add("Range", "bytes=\(written)-") }
        switch condition {
        case .ifNoneMatch(let etag): request.headers.add("If-None-Match", etag)
        case .ifRange(let validator): request.headers.add("If-Range", validator)
        case .ifMatch(let etag): request.headers.add("If-Match", etag)
        case nil: break
        }
        return request
    }

    /// The error a stream ends with.
    private func streamFailure(
        _ failure: ResumingStreamMachine.Failure, last: DownloadError?, url: String
    ) -> DownloadError {
        let shown = URLRedaction.redacted(url)
        switch failure {
        case .noValidator(let written):
            return .transfer(
                .transport(
                    request: "GET \(shown)", code: TransportCode.receiveError,
                    message:
                        "connection lost after \(written) bytes and the server gives no ETag or Last-Modified to resume safely"
                ))
        case .unstable: return .unstable(url: shown)
        case .unexpectedAnswer(let reason): return .unexpectedAnswer(url: shown, reason: reason)
        case .lastAnswer, .lastTransportError: return last ?? .unexpectedAnswer(url: shown, reason: "no answer")
        }
    }
}

/// What one attempt of a stream learnt before its body and wrote, told by the transport's callbacks.
private final class StreamAttempt: Sendable {
    private struct Known {
        var wrote: Int64 = 0
        var learnt: ResumingStreamMachine.Learnt?
    }

    private let known = LockedValue(Known())

    var wrote: Int64 {
        get { known.withLock { $0.wrote } }
        set { known.withLock { $0.wrote = newValue } }
    }
    var learnt: ResumingStreamMachine.Learnt? { known.withLock { $0.learnt } }

    func learn(from headers: HTTPHeaders) {
        let learnt = ResumingStreamMachine.Learnt(RemoteFileInfo(headers: headers))
        known.withLock { $0.learnt = learnt }
    }
}

/// How a stream ended.
package struct StreamOutcome: Sendable, Equatable {
    /// Bytes written to the output.
    package var written: Int64
    /// The server answered `304 Not Modified` to `If-None-Match`: nothing was written.
    package var notModified: Bool
    /// The strong ETag of what was sent (or confirmed unchanged), if the server gave one.
    package var etag: String?
    /// Its Last-Modified, if the server gave one.
    package var lastModified: String? = nil
}
