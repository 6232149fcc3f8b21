import Foundation
import Platform

/// Where one attempt's response goes, whichever engine carries it: the head decides (the request's response check,
/// the body's length limits), then each body chunk is stored in the request's sink. Every engine feeds one of these,
/// so the rules (nothing stored before the check, never a byte past the limit, only a 2xx body in a file) are kept
/// in one place.
///
/// Not thread-safe: an engine calls it from one thread or serial queue at a time.
package final class ResponseReceiver: @unchecked Sendable {  // Used by one engine thread or queue at a time.
    /// The request being answered.
    package let request: HTTPRequest
    /// `METHOD redacted-URL`, for errors.
    package let label: String
    /// The status of the response being received (0 before its status line).
    package private(set) var status = 0
    /// Its header fields so far.
    package private(set) var headers = HTTPHeaders()
    /// True once a final (non-1xx) response's head is complete.
    package private(set) var headersComplete = false
    /// Why the transfer must stop, once something went wrong; the engine ends it and reports this.
    package var failure: HTTPError?
    private var body = Data()
    private var bytesWritten: Int64 = 0
    private var verdict: String??  // nil: not checked yet; .some(nil): accepted; .some(reason): rejected
    private var bodyLimit: Int64?
    private var headerBytes = 0
    private let memoryLimit: Int
    private var sink: FileDescriptorSink?
    private var copyDescriptor: Int32 = -1
    private var copyRemaining: Int64 = 0
    private let onProgress: (@Sendable (TransferProgress) -> Void)?
    private var lastProgress = TransferProgress(received: 0, expectedReceive: nil, sent: 0, expectedSend: nil)

    /// Opens the request's sink (a file sink is created or truncated here, before any byte is sent).
    package init(request: HTTPRequest, onProgress: (@Sendable (TransferProgress) -> Void)?) throws(HTTPError) {
        self.request = request
        label = "\(request.method) \(URLRedaction.redacted(request.url))"
        self.onProgress = onProgress
        if case .memory(let limit) = request.sink { memoryLimit = limit } else { memoryLimit = 1 << 20 }
        switch request.sink {
        case .memory: break
        case .file(let path, let offset): sink = try FileDescriptorSink(path: path, offset: offset)
        case .stream(let descriptor): sink = FileDescriptorSink(borrowing: descriptor, name: "<stdout>")
        case .streamWithCopy(let descriptor, let copy, let limit):
            sink = FileDescriptorSink(borrowing: descriptor, name: "<stdout>")
            copyDescriptor = copy
            copyRemaining = limit
        }
    }

    /// A header block larger than this is no real server's (libcurl's own limit per line is 100 KiB).
    package static let maxHeaderBytes = 256 << 10

    // MARK: The head

    /// A response's status line arrived (again after a 1xx): its headers start afresh.
    package func begin(status: Int) {
        self.status = status
        headers = HTTPHeaders()
        verdict = nil
        bodyLimit = nil
        headersComplete = false
    }

    /// One raw header line (`Name: value\r\n`); false once the head is larger than any real server's.
    package func addHeaderLine(_ bytes: UnsafeRawBufferPointer) -> Bool {
        headerBytes += bytes.count
        guard headerBytes <= Self.maxHeaderBytes else {
            failure = .headersTooLarge(request: label)
            return false
        }
        headers.addRawLine(Substring(String(decoding: bytes, as: UTF8.self)))
        return true
    }

    /// A whole head handed over parsed (URLSession's response, the transfer daemon's answer): its status, then its
    /// fields, then ``endHead()``. Nil when the body may come; else why not: a head larger than any real server's
    /// (counted as the lines would be), or the response check's refusal.
    package func takeHead(status: Int, fields: [(name: String, value: String)]) -> HTTPError? {
        begin(status: status)
        var headBytes = 0
        for field in fields {
            headBytes += field.name.utf8.count + field.value.utf8.count + 4
            headers.add(field.name, field.value)
        }
        guard headBytes <= Self.maxHeaderBytes else { return .headersTooLarge(request: label) }
        endHead()
        return rejection
    }

    /// The head is complete: a final response is checked (unless it is a redirect ``HTTPClient`` will follow) and
    /// a 2xx body's limit fixed.
    package func endHead() {
        headersComplete = status >= 200
        let isFinal =
            status >= 200
            && !(request.redirects != .never && (300..<400).contains(status) && headers["Location"] != nil)
        if isFinal, let check = request.responseCheck { verdict = .some(check(status, headers)) }
        if (200..<300).contains(status) {
            bodyLimit = Self.bodyLimit(status: status, headers: headers, expected: request.expectedLength)
        }
    }

    /// Why the response was refused before its body, if it was.
    package var rejection: HTTPError? {
        if case .some(.some(let reason)) = verdict { return .rejected(request: label, status: status, reason: reason) }
        return nil
    }

    /// The most 2xx body bytes a response may carry: a `206`'s range, `Content-Length`, and what the caller
    /// expects, whichever is smallest; nil when nothing bounds it.
    package static func bodyLimit(status: Int, headers: HTTPHeaders, expected: Int64?) -> Int64? {
        var limits: [Int64] = []
        if let expected { limits.append(max(0, expected)) }
        if let length = headers["Content-Length"].flatMap({ Int64($0) }), length >= 0 { limits.append(length) }
        if status == 206, let range = headers["Content-Range"].flatMap(HTTPHeaders.parseContentRange)?.range {
            limits.append(range.upperBound - range.lowerBound + 1)
        }
        return limits.min()
    }

    // MARK: The body

    /// Whether a body of `count` bytes so far is already past what the head allows (a 2xx longer than its length or
    /// range): for an engine that stores the body only at the end, checked as the bytes arrive. Sets ``failure``.
    package func isPastLimit(_ count: Int64) -> Bool {
        guard let bodyLimit, (200..<300).contains(status), count > bodyLimit else { return false }
        failure = .lengthExceeded(request: label, limit: bodyLimit)
        return true
    }

    /// Stores one chunk of the body; false (with ``failure`` set) when the transfer must stop.
    package func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if let rejection {
            failure = rejection
            return false
        }
        let isSuccess = (200..<300).contains(status)
        if let bodyLimit, isSuccess, bytesWritten + Int64(body.count) + Int64(bytes.count) > bodyLimit {
            failure = .lengthExceeded(request: label, limit: bodyLimit)
            return false
        }
        if let sink, isSuccess {
            if let problem = sink.write(bytes) {
                failure = problem
                return false
            }
            if copyDescriptor >= 0 { copy(bytes) }
            request.onStoredBytes?(bytes)
            bytesWritten += Int64(bytes.count)
            // Stored bytes are reported as they land, so a resume after a failure knows exactly where to start.
            lastProgress.written = bytesWritten
            onProgress?(lastProgress)
            return true
        }
        guard body.count + bytes.count <= memoryLimit else {
            failure = .responseTooLarge(request: label, limit: memoryLimit)
            return false
        }
        body.append(contentsOf: bytes)
        return true
    }

    /// Best effort by design: a full cache disk must not break the output the user asked for.
    private func copy(_ bytes: UnsafeRawBufferPointer) {
        guard Int64(bytes.count) <= copyRemaining, SystemCalls.writeAll(copyDescriptor, bytes) == nil else {
            copyDescriptor = -1
            return
        }
        copyRemaining -= Int64(bytes.count)
    }

    /// The byte counters moved; reported when they changed.
    package func progress(received: Int64, expectedReceive: Int64?, sent: Int64, expectedSend: Int64?) {
        let snapshot = TransferProgress(
            received: received, expectedReceive: expectedReceive, sent: sent, expectedSend: expectedSend,
            written: bytesWritten)
        guard snapshot != lastProgress else { return }
        lastProgress = snapshot
        onProgress?(snapshot)
    }

    /// Bytes moved both ways so far, for the low-speed rule.
    package var moved: Int64 { lastProgress.received + lastProgress.sent }

    // MARK: The end

    /// The response, once the engine says the exchange completed: a file sink's bytes are flushed to the disk first.
    package func response(status finalStatus: Int? = nil, effectiveURL: String?) throws(HTTPError) -> HTTPResponse {
        if let failure { throw failure }
        if let rejection { throw rejection }
        if let problem = sink?.flushIfOwned() { throw problem }
        return HTTPResponse(
            status: finalStatus ?? status, headers: headers, body: body, bytesWritten: bytesWritten,
            effectiveURL: effectiveURL ?? request.url, attempts: 1)
    }
}
