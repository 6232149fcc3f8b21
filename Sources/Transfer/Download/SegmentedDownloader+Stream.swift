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
        let state = StreamState()
        let policy = http.configuration.retry
        let loop = RetryLoop(transfer: policy, clock: http.configuration.clock)
        do {
            return try await loop.run { () async throws -> RetryStep<StreamOutcome> in
                let (written, validator, total) = state.values
                let sink: HTTPRequest.Sink =
                    if let copy {
                        .streamWithCopy(
                            fileDescriptor: fileDescriptor, copyDescriptor: copy.descriptor, copyLimit: copy.limit)
                    } else { .stream(fileDescriptor: fileDescriptor) }
                var request = HTTPRequest(url: url, sink: sink, credential: credential, redirects: .anyOrigin)
                request.maxReceiveBytesPerSecond = bandwidthLimit
                if let digest { request.onStoredBytes = { digest.update($0) } }
                if written > 0 {
                    guard let validator else {
                        throw DownloadError.transfer(
                            .transport(
                                request: "GET \(URLRedaction.redacted(url))", code: TransportCode.receiveError,
                                message:
                                    "connection lost after \(written) bytes and the server gives no ETag or Last-Modified to resume safely"
                            ))
                    }
                    request.headers.add("Range", "bytes=\(written)-")
                    // With If-Match a changed file answers 412, which fails the stream: bytes already written cannot be taken back.
                    request.headers.add(
                        rangeCondition == .ifMatch && !validator.hasPrefix("W/") && validator.hasPrefix("\"")
                            ? "If-Match" : "If-Range", validator)
                } else if let ifNoneMatch {
                    request.headers.add("If-None-Match", ifNoneMatch)
                }
                request.responseCheck = { status, headers in
                    guard written > 0 else {
                        // Learnt before the first body byte, so a failure mid-stream can still resume.
                        if status == 200 { state.learn(from: headers) }
                        // A server that promises lengths (Officer's raw endpoint) and sends none could send forever.
                        if status == 200, requireLength, headers["Content-Length"] == nil {
                            return "no Content-Length for a file"
                        }
                        return status == 206 ? "a range that was not asked for" : nil
                    }
                    if status == 200 { return "the file changed on the server after \(written) bytes were written" }
                    if status == 206 {
                        let parsed = headers["Content-Range"].flatMap(HTTPHeaders.parseContentRange)
                        if parsed?.range?.lowerBound != written || (total != nil && parsed?.total != total) {
                            return
                                "Content-Range \(headers["Content-Range"] ?? "missing") does not continue at byte \(written)"
                        }
                    }
                    return nil
                }
                // What the last attempt failed with: given up on, it is the error as it is, not wrapped again.
                let lastFailure: DownloadError
                let verdict: RetryVerdict
                do {
                    let response = try await http.send(
                        request, retrying: false,
                        onProgress: { snapshot in
                            state.attemptWritten = snapshot.written
                            onProgress?(
                                written + snapshot.written, total ?? snapshot.expectedReceive.map { written + $0 })
                        })
                    state.commitAttempt()
                    if response.status == 304, written == 0, ifNoneMatch != nil {
                        return .done(
                            StreamOutcome(written: 0, notModified: true, etag: response.headers["ETag"] ?? ifNoneMatch))
                    }
                    if response.isSuccess {
                        let (now, _, expected) = state.values
                        if let expected, now < expected {  // cut short without an error
                            loop.progressed()
                            return .next
                        }
                        return .done(
                            StreamOutcome(
                                written: now, notModified: false, etag: state.etag, lastModified: state.lastModified))
                    }
                    lastFailure = .server(
                        url: URLRedaction.redacted(url), status: response.status, message: response.errorMessage)
                    verdict = policy.verdict(for: response)
                } catch let error as HTTPError {
                    state.commitAttempt()
                    if case .rejected(_, let status, let why) = error {
                        throw written > 0 && status == 200
                            ? DownloadError.unstable(url: URLRedaction.redacted(url))
                            : DownloadError.unexpectedAnswer(url: URLRedaction.redacted(url), reason: why)
                    }
                    lastFailure = .transfer(error)
                    verdict = policy.verdict(for: error)
                }
                guard let step = RetryStep<StreamOutcome>.after(verdict, otherwise: { _ in throw lastFailure }) else {
                    throw lastFailure
                }
                if state.values.written > written { loop.progressed() }
                return step
            }
        } catch let error as DownloadError {
            throw error
        } catch {
            throw .transfer(.cancelled(request: "GET \(URLRedaction.redacted(url))"))
        }
    }
}

/// What a stream knows between attempts.
private final class StreamState: Sendable {
    private struct Known {
        var written: Int64 = 0
        var validator: String?
        var total: Int64?
        var strongETag: String?
        var modified: String?
        var attempt: Int64 = 0
    }

    private let known = LockedValue(Known())

    var values: (written: Int64, validator: String?, total: Int64?) {
        known.withLock { ($0.written, $0.validator, $0.total) }
    }
    var etag: String? { known.withLock { $0.strongETag } }
    var lastModified: String? { known.withLock { $0.modified } }
    var attemptWritten: Int64 {
        get { known.withLock { $0.attempt } }
        set { known.withLock { $0.attempt = newValue } }
    }

    func commitAttempt() {
        known.withLock {
            $0.written += $0.attempt
            $0.attempt = 0
        }
    }

    func learn(from headers: HTTPHeaders) {
        let info = RemoteFileInfo(headers: headers)
        known.withLock {
            $0.validator = info.rangeValidator
            $0.total = info.total
            $0.strongETag = info.etag.flatMap { $0.hasPrefix("W/") ? nil : $0 }
            $0.modified = info.lastModified
        }
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
