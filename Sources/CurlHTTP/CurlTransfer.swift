import CCurl
import FileModel
import Foundation
import HTTP
import Platform

/// One attempt of one request on the engine thread: owns its easy handle, header list, MIME body,
/// error buffer and file descriptors, and is the `userdata` of every libcurl callback.
final class CurlTransfer: @unchecked Sendable {  // Confined to the engine thread, but for `crossing`.
    let easy: CurlCalls.Easy
    let request: HTTPRequest
    let label: String
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private var mime: OpaquePointer?
    private let errorBuffer: UnsafeMutablePointer<CChar>
    /// The file a body streams from, once opened.
    private var source: OpenFile?
    private var sourceFD: Int32 { source?.descriptor ?? -1 }
    private var sourceRemaining: Int64 = 0
    private var sourceLength: Int64 = 0
    private var sourcePath = ""
    private var lastBytesChecked = false
    private var sourceStream: BodyStream?
    /// A body held in memory that goes through the read callback (paced, never copied by libcurl).
    private var sourceData: Data?
    private var sourceDataSent = 0
    private let sourceStart: Int64
    /// The response's head and body, stored as the request's sink says (engine thread only).
    private let receiver: ResponseReceiver
    private var lowSpeed: LowSpeedWatch
    private var pacer: Pace?
    private var sendPacer: Pace?
    /// When a paced transfer may receive again (engine thread only).
    private var receiveResumeAt: Double?
    /// When a paced transfer may send again: kept until the read callback runs again (engine thread only).
    private var sendResumeAt: Double?
    /// When the last sending pause was due to end: the low-speed watch excuses it up to then, not while libcurl
    /// has not come back for the body (a server's answer stalling instead is judged).
    private var sendPausedUntil: Double?
    private var failure: HTTPError? {
        get { receiver.failure }
        set { receiver.failure = newValue }
    }

    /// What crosses threads: the caller's continuation and cancellation, and a pipe's news for the engine thread.
    private let crossing = LockedValue(Crossing())
    /// The read callback paused for a pipe that had nothing yet: kept until it runs again (engine thread only).
    private var waitingForStream = false
    /// When the pipe's pause was last asked to end (engine thread only; ``resumeIfDue(now:)``).
    private var streamUnpausedAt: Double?
    /// How soon an unpause the read callback has not answered yet is repeated.
    static let unpauseRepeat = 0.02

    /// When the engine is to look at this transfer again at the latest: a pacing pause's end, or soon for a pipe
    /// that has bytes for a read callback that has not run since (engine thread only).
    var resumeAt: Double? {
        // Read on every turn of the engine's loop: no array, no lock unless a pipe is waited for.
        var due = receiveResumeAt
        if let send = sendResumeAt { due = min(due ?? send, send) }
        if waitingForStream, crossing.withLock({ $0.streamReadable }) {
            let stream = streamUnpausedAt.map { $0 + Self.unpauseRepeat } ?? 0
            due = min(due ?? stream, stream)
        }
        return due
    }

    private struct Crossing {
        var cancelled = false
        var continuation: CheckedContinuation<HTTPResponse, any Error>?
        /// The pipe has something since the read callback last looked.
        var streamReadable = false
        /// Wakes the engine thread (set by the engine when the transfer is handed to it).
        var wakeEngine: (@Sendable () -> Void)?
    }

    init(
        request: HTTPRequest, configuration: HTTPClientConfiguration,
        onProgress: (@Sendable (TransferProgress) -> Void)?
    ) throws {
        let label = "\(request.method) \(URLRedaction.redacted(request.url))"
        try request.checkBeforeSending(label: label)
        guard CurlCalls.ensureGlobalInit(), let easy = CurlCalls.easyInit() else {
            throw HTTPError.transport(
                request: "\(request.method) \(request.url)", code: 2,
                message: "cannot load libcurl: \(CurlCalls.loadFailure)")
        }
        self.easy = easy
        self.request = request
        self.label = label
        errorBuffer = .allocate(capacity: CurlCalls.errorBufferSize)
        errorBuffer.initialize(repeating: 0, count: CurlCalls.errorBufferSize)
        if case .file(_, let offset, _, _) = request.body { sourceStart = offset } else { sourceStart = 0 }
        lowSpeed = LowSpeedWatch(request: request, configuration: configuration)
        do {
            receiver = try ResponseReceiver(request: request, onProgress: onProgress)
        } catch {
            CurlCalls.easyCleanup(easy)
            errorBuffer.deallocate()
            throw error
        }
        try configure(configuration)
    }

    deinit {
        CurlCalls.easyCleanup(easy)
        CurlCalls.freeList(headerList)
        CurlCalls.mimeFree(mime)
        errorBuffer.deallocate()
    }

    private func configure(_ configuration: HTTPClientConfiguration) throws {
        let userdata = Unmanaged.passUnretained(self).toOpaque()
        configureConnection(configuration)
        configurePacing(configuration)
        configureCallbacks(userdata)
        var headerLines = request.headers.map { "\($0.name): \($0.value)" }
        switch request.method {
        case "GET": break
        case "HEAD": CurlCalls.set(easy, CURLOPT_NOBODY, 1)
        default: CurlCalls.set(easy, CURLOPT_CUSTOMREQUEST, request.method)
        }
        try configureBody(headers: &headerLines, userdata: userdata)
        for line in headerLines { headerList = CurlCalls.append(headerList, line) }
        if headerList != nil { CurlCalls.set(easy, CURLOPT_HTTPHEADER, list: headerList) }
        if case .memory = request.sink {
        } else if pacer == nil {
            // Bigger reads mean fewer write callbacks and syscalls on bulk transfers.
            CurlCalls.set(easy, CURLOPT_BUFFERSIZE, 256 << 10)
        }
    }

    /// The URL, what may be followed, timeouts, TLS, the user agent and the credential.
    private func configureConnection(_ configuration: HTTPClientConfiguration) {
        CurlCalls.set(easy, CURLOPT_URL, request.url)
        CurlCalls.set(easy, CURLOPT_PROTOCOLS_STR, "http,https")
        CurlCalls.set(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        // Redirects are followed by HTTPClient, hop by hop, so each hop's origin is checked and logged.
        CurlCalls.set(easy, CURLOPT_FOLLOWLOCATION, 0)
        CurlCalls.set(easy, CURLOPT_UNRESTRICTED_AUTH, 0)
        CurlCalls.set(easy, CURLOPT_NOSIGNAL, 1)
        if request.freshConnection {
            CurlCalls.set(easy, CURLOPT_FRESH_CONNECT, 1)
            CurlCalls.set(easy, CURLOPT_FORBID_REUSE, 1)
        }
        CurlCalls.set(easy, CURLOPT_CONNECTTIMEOUT_MS, Int(configuration.connectTimeout * 1000))
        // libcurl's own stall rule counts the time a pipe's producer takes (`pg_dump | put -` thinking for minutes
        // before its first byte) as a stalled link: a body from a pipe is held to ``LowSpeedWatch`` alone, which
        // does not count the waits for the producer.
        if !request.hasStreamBody {
            CurlCalls.set(easy, CURLOPT_LOW_SPEED_LIMIT, 1)
            CurlCalls.set(easy, CURLOPT_LOW_SPEED_TIME, max(1, Int(configuration.stallTimeout.rounded(.up))))
        }
        if let total = configuration.totalTimeout { CurlCalls.set(easy, CURLOPT_TIMEOUT_MS, Int(total * 1000)) }
        if request.isBulk, !configuration.bulkOverHTTP2 {
            CurlCalls.set(easy, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_1_1)
        }
        CurlCalls.set(easy, CURLOPT_SSL_VERIFYPEER, configuration.insecure ? 0 : 1)
        CurlCalls.set(easy, CURLOPT_SSL_VERIFYHOST, configuration.insecure ? 0 : 2)
        if let ca = configuration.caCertificatePath { CurlCalls.set(easy, CURLOPT_CAINFO, ca) }
        if !configuration.pinnedPublicKeys.isEmpty {
            CurlCalls.set(easy, CURLOPT_PINNEDPUBLICKEY, configuration.pinnedPublicKeys.joined(separator: ";"))
        }
        CurlCalls.set(easy, CURLOPT_USERAGENT, configuration.userAgent)
        CurlCalls.set(easy, CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        // HTTPClient sends a credential only to its own origin; its token was checked when it was made.
        if let credential = request.credential {
            CurlCalls.set(easy, CURLOPT_HTTPAUTH, CurlCalls.authBearer())
            CurlCalls.set(easy, CURLOPT_XOAUTH2_BEARER, credential.token)
        }
    }

    /// The send and receive limits, and buffer sizes that keep them even.
    private func configurePacing(_ configuration: HTTPClientConfiguration) {
        sendPacer = Pace.of(request, sending: true, configuration: configuration)
        pacer = Pace.of(request, sending: false, configuration: configuration)
        if let rate = sendPacer.map({ Int64($0.bytesPerSecond) }) {
            CurlCalls.set(easy, CURLOPT_UPLOAD_BUFFERSIZE, Int(max(16_384, min(rate / 10, 2 << 20))))
        } else if case .file = request.body {
            // Larger reads from the file: fewer callbacks and syscalls for big PATCH bodies.
            CurlCalls.set(easy, CURLOPT_UPLOAD_BUFFERSIZE, 512 << 10)
        }
        if let rate = pacer.map({ Int64($0.bytesPerSecond) }) {
            // Smaller reads keep the pacing even; the socket buffer does not need to fill at this rate.
            CurlCalls.set(easy, CURLOPT_BUFFERSIZE, Int(max(16_384, min(rate / 10, 256 << 10))))
        }
    }

    /// The header, body and progress callbacks, which find this transfer through `userdata`.
    private func configureCallbacks(_ userdata: UnsafeMutableRawPointer) {
        CurlCalls.set(easy, CURLOPT_HEADERFUNCTION, callback: headerCallback)
        CurlCalls.set(easy, CURLOPT_HEADERDATA, pointer: userdata)
        CurlCalls.set(easy, CURLOPT_WRITEFUNCTION, callback: writeCallback)
        CurlCalls.set(easy, CURLOPT_WRITEDATA, pointer: userdata)
        CurlCalls.set(easy, CURLOPT_NOPROGRESS, 0)
        CurlCalls.setProgress(easy, progressCallback)
        CurlCalls.set(easy, CURLOPT_XFERINFODATA, pointer: userdata)
    }

    /// The request's body, and the header lines it adds.
    private func configureBody(headers headerLines: inout [String], userdata: UnsafeMutableRawPointer) throws {
        switch request.body {
        case .empty:
            if request.method != "GET", request.method != "HEAD" {
                CurlCalls.set(easy, CURLOPT_POSTFIELDSIZE_LARGE, offset: 0)
                CurlCalls.set(easy, CURLOPT_COPYPOSTFIELDS, "")
            }
        case .data(let data, let contentType) where data.count >= Self.streamedDataLimit || sendPacer != nil:
            // A chunk of a file (a tus upload's last one, a pipe's): sent from the caller's bytes through the read
            // callback, so the send limit paces it and libcurl keeps no second copy of it.
            sourceData = data
            sendThroughReadCallback(length: Int64(data.count), contentType: contentType, headers: &headerLines)
        case .data(let data, let contentType):
            CurlCalls.set(easy, CURLOPT_POSTFIELDSIZE_LARGE, offset: Int64(data.count))
            data.withUnsafeBytes { bytes in
                _ = CurlCalls.set(
                    easy, CURLOPT_COPYPOSTFIELDS,
                    pointer: UnsafeMutableRawPointer(mutating: bytes.baseAddress ?? UnsafeRawPointer(errorBuffer)))
            }
            headerLines.append("Content-Type: \(contentType)")
        case .file(let path, let offset, let length, let contentType):
            try openSource(path, offset: offset, length: length)
            sendThroughReadCallback(length: length, contentType: contentType, headers: &headerLines)
        case .multipart(let parts):
            try configureMultipart(parts, userdata: userdata)
            headerLines.append("Expect:")
        }
    }

    /// A multipart form, its files read through our callbacks as a file body is: the same checks, the same pacing.
    private func configureMultipart(_ parts: [HTTPRequest.MultipartPart], userdata: UnsafeMutableRawPointer) throws {
        guard let mime = CurlCalls.mimeInit(easy) else {
            throw HTTPError.transport(request: label, code: 27, message: "out of memory")
        }
        self.mime = mime
        for part in parts {
            let status: CURLcode
            switch part {
            case .field(let name, let value): status = CurlCalls.mimeAddField(mime, name: name, value: value)
            case .file(let name, let path, let filename, let type):
                var info = stat()
                guard stat(path, &info) == 0 else {
                    throw HTTPError.localFile(path: path, message: String(cString: strerror(errno)))
                }
                try openSource(path, offset: 0, length: Int64(info.st_size))
                status = CurlCalls.mimeAddFile(
                    mime, name: name, filename: filename, type: type, size: Int64(info.st_size), read: readCallback,
                    seek: seekCallback, userdata: userdata)
            case .stream(let name, let source, let filename, let type):
                sourceStream = source
                let crossing = crossing
                source.onReadable {
                    let wake = crossing.withLock { crossing in
                        crossing.streamReadable = true
                        return crossing.wakeEngine
                    }
                    wake?()
                }
                sourcePath = filename
                status = CurlCalls.mimeAddFile(
                    mime, name: name, filename: filename, type: type, size: -1, read: readCallback, seek: seekCallback,
                    userdata: userdata)
            }
            guard status == CurlCalls.ok else {
                throw HTTPError.transport(
                    request: label, code: Int(status.rawValue), message: CurlCalls.strerror(status))
            }
        }
        CurlCalls.setMime(easy, mime)
    }

    // MARK: Lifecycle (called by CurlEngine)

    /// Hands the transfer its caller's continuation and the engine's wake-up (for a pipe that has bytes again).
    func attach(
        _ continuation: CheckedContinuation<HTTPResponse, any Error>, wakeEngine: @escaping @Sendable () -> Void
    ) {
        crossing.withLock {
            $0.continuation = continuation
            $0.wakeEngine = wakeEngine
        }
    }

    func cancel() { crossing.withLock { $0.cancelled = true } }

    /// Unpauses a transfer whose bytes are due (engine thread only).
    ///
    /// A pause the read callback asks for may take effect only at libcurl's next read: a multipart body's read
    /// returns the part's header first and keeps the callback's pause for the next one, and an unpause before then
    /// changes nothing (libcurl 7.88 returns early when the transfer is not paused yet). So a sending pause ends
    /// only when the read callback runs again, and until then the unpause is repeated every ``unpauseRepeat``.
    /// Clearing it at the first unpause lost it there: a pipe whose bytes came in that window was never read again,
    /// and the upload stalled until the low-speed limit gave up on it (`put -`, one run in a loaded suite).
    func resumeIfDue(now: Double) {
        if waitingForStream, crossing.withLock({ $0.streamReadable }),
            streamUnpausedAt.map({ now - $0 >= Self.unpauseRepeat }) ?? true
        {
            streamUnpausedAt = now
            CurlCalls.unpause(easy)
        }
        if let due = sendResumeAt, due <= now {
            sendResumeAt = now + Self.unpauseRepeat
            CurlCalls.unpause(easy)
        }
        guard let due = receiveResumeAt, due <= now else { return }
        receiveResumeAt = nil
        CurlCalls.unpause(easy)
    }

    var isCancelled: Bool { crossing.withLock { $0.cancelled } }

    /// Resumes the waiting task exactly once with the outcome of `code`.
    func finish(code: CURLcode) {
        let outcome: Result<HTTPResponse, any Error>
        if isCancelled {
            outcome = .failure(CancellationError())
        } else if let failure {
            outcome = .failure(failure)
        } else if let rejection = receiver.rejection {
            outcome = .failure(rejection)
        } else if code != CurlCalls.ok, receiver.status > 0, !receiver.headersComplete, CurlCalls.isTooLarge(code) {
            // libcurl refuses a header line over its own limit with "out of memory": the server's fault, not ours.
            outcome = .failure(HTTPError.headersTooLarge(request: label))
        } else if code != CurlCalls.ok {
            let detail = String(cString: errorBuffer)
            outcome = .failure(
                HTTPError.transport(
                    request: label, code: Int(code.rawValue),
                    message: detail.isEmpty ? CurlCalls.strerror(code) : detail))
        } else {
            outcome = Result { () throws(HTTPError) -> HTTPResponse in
                try receiver.response(
                    status: CurlCalls.infoLong(easy, CURLINFO_RESPONSE_CODE),
                    effectiveURL: CurlCalls.infoString(easy, CURLINFO_EFFECTIVE_URL))
            }.mapError { $0 as any Error }
        }
        let waiting = crossing.withLock { crossing -> CheckedContinuation<HTTPResponse, any Error>? in
            defer { crossing.continuation = nil }
            return crossing.continuation
        }
        waiting?.resume(with: outcome)
    }

    // MARK: Callbacks

    fileprivate func receiveHeader(_ bytes: UnsafeRawBufferPointer) -> Int {
        if bytes.starts(with: "HTTP/".utf8) {
            // A new response starts (after 100-continue): forget the previous one's headers.
            let parts = String(decoding: bytes, as: UTF8.self).split(separator: " ", maxSplits: 2)
            receiver.begin(status: parts.count > 1 ? Int(parts[1]) ?? 0 : 0)
        } else if bytes.elementsEqual("\r\n".utf8) || bytes.elementsEqual("\n".utf8) {
            receiver.endHead()
        } else if !receiver.addHeaderLine(bytes) {
            return 0
        }
        return bytes.count
    }

    fileprivate func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        if isCancelled { return 0 }
        if receiver.rejection == nil, pacer != nil, let wait = pacer!.admit(bytes.count) {
            // libcurl keeps the data and offers it again once the engine unpauses us.
            receiveResumeAt = ProcessInfo.processInfo.systemUptime + wait
            return CurlCalls.writePause
        }
        return receiver.receive(bytes) ? bytes.count : 0
    }

    /// A body of `length` bytes that libcurl asks for through the read callback (``sendBody(into:)``: a file's
    /// bytes or the caller's in memory, paced by the send limit, seekable for a rewind).
    private func sendThroughReadCallback(length: Int64, contentType: String, headers: inout [String]) {
        let userdata = Unmanaged.passUnretained(self).toOpaque()
        CurlCalls.set(easy, CURLOPT_POST, 1)
        CurlCalls.set(easy, CURLOPT_POSTFIELDSIZE_LARGE, offset: length)
        CurlCalls.set(easy, CURLOPT_READFUNCTION, callback: readCallback)
        CurlCalls.set(easy, CURLOPT_READDATA, pointer: userdata)
        CurlCalls.setSeek(easy, seekCallback)
        CurlCalls.set(easy, CURLOPT_SEEKDATA, pointer: userdata)
        headers.append("Content-Type: \(contentType)")
        // No "Expect: 100-continue" round trip: our servers answer early errors anyway.
        headers.append("Expect:")
    }

    /// Opens the file a body streams from, at `offset`, for `length` bytes.
    private func openSource(_ path: String, offset: Int64, length: Int64) throws {
        do { source = try OpenFile(path, O_RDONLY) } catch {
            throw HTTPError.localFile(path: path, message: "\(error)")
        }
        guard lseek(sourceFD, off_t(offset), SEEK_SET) == off_t(offset) else {
            throw HTTPError.localFile(path: path, message: "cannot seek to offset \(offset)")
        }
        sourcePath = path
        sourceLength = length
        sourceRemaining = length
    }

    /// In-memory bodies from this size up go through the read callback (smaller ones, JSON, are copied to libcurl).
    static let streamedDataLimit = 64 << 10

    /// Whether the send limit holds `wanted` bytes back for now; if so the sending pause begins, to end when the
    /// read callback runs again (``resumeIfDue(now:)``).
    private func sendPaceHolds(_ wanted: Int) -> Bool {
        guard sendPacer != nil, let wait = sendPacer!.admit(wanted) else { return false }
        sendResumeAt = ProcessInfo.processInfo.systemUptime + wait
        sendPausedUntil = sendResumeAt
        return true
    }

    fileprivate func sendBody(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        // Called again: whatever pause the last call asked for has ended (``resumeIfDue(now:)``).
        (sendResumeAt, waitingForStream, streamUnpausedAt) = (nil, false, nil)
        if isCancelled { return CurlCalls.readAbort }
        if let sourceData {
            let wanted = min(buffer.count, sourceData.count - sourceDataSent)
            guard wanted > 0 else { return 0 }
            if sendPaceHolds(wanted) { return CurlCalls.readPause }
            let start = sourceData.startIndex + sourceDataSent
            sourceData.copyBytes(to: buffer.bindMemory(to: UInt8.self), from: start..<(start + wanted))
            sourceDataSent += wanted
            return wanted
        }
        if let sourceStream {
            let wanted = sendPacer == nil ? buffer.count : min(buffer.count, 64 << 10)
            if sendPaceHolds(wanted) { return CurlCalls.readPause }
            // Cleared before looking: bytes that come after the look set it again, and wake the engine.
            crossing.withLock { $0.streamReadable = false }
            switch sourceStream.take(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted])) {
            case .bytes(let count): return count
            case .end: return 0
            case .wait:
                // Nothing from the pipe yet: paused until the producer appends (``resumeIfDue(now:)``); the
                // producer's pause is no stalled link, whatever window it falls in.
                waitingForStream = true
                lowSpeed.notePause()
                return CurlCalls.readPause
            case .failed(let reason):
                failure = .localFile(path: sourcePath, message: reason)
                return CurlCalls.readAbort
            }
        }
        let wanted = Int(min(Int64(buffer.count), sourceRemaining))
        guard wanted > 0 else { return 0 }
        if sendPaceHolds(wanted) { return CurlCalls.readPause }
        if Int64(wanted) == sourceRemaining, !lastBytesChecked, let check = request.beforeLastBodyBytes {
            lastBytesChecked = true
            if let reason = check() {
                failure = .localFile(path: sourcePath, message: reason)
                return CurlCalls.readAbort
            }
        }
        let count = read(sourceFD, buffer.baseAddress, wanted)
        guard count > 0 else {
            failure = .localFile(
                path: sourcePath,
                message: count == 0 ? "file shrank while being sent" : String(cString: strerror(errno)))
            return CurlCalls.readAbort
        }
        sourceRemaining -= Int64(count)
        return count
    }

    fileprivate func seekBody(to offset: Int64) -> Int32 {
        if let sourceData {
            guard offset >= 0, offset <= Int64(sourceData.count) else { return CurlCalls.seekFail }
            sourceDataSent = Int(offset)
            return CurlCalls.seekOK
        }
        guard sourceFD >= 0, offset <= sourceLength, lseek(sourceFD, off_t(sourceStart + offset), SEEK_SET) >= 0
        else { return CurlCalls.seekFail }
        sourceRemaining = sourceLength - offset
        // A body sent again (a rewind after a redirect or an auth round) is checked again before its end.
        lastBytesChecked = false
        return CurlCalls.seekOK
    }

    fileprivate func reportProgress(received: Int64, expectedReceive: Int64, sent: Int64, expectedSend: Int64) -> Int32
    {
        if isCancelled { return 1 }
        let pausedToSend =
            (waitingForStream && !crossing.withLock { $0.streamReadable })
            || sendPausedUntil.map { ProcessInfo.processInfo.systemUptime < $0 } ?? false
        if lowSpeed.isTooSlow(moved: received + sent, paused: receiveResumeAt != nil || pausedToSend) {
            failure = lowSpeed.failure(label: label)
            return 1
        }
        receiver.progress(
            received: received, expectedReceive: expectedReceive > 0 ? expectedReceive : nil,
            sent: sent, expectedSend: expectedSend > 0 ? expectedSend : nil)
        return 0
    }
}

private func transfer(_ userdata: UnsafeMutableRawPointer?) -> CurlTransfer {
    Unmanaged<CurlTransfer>.fromOpaque(userdata!).takeUnretainedValue()
}

private let headerCallback: CurlCalls.DataCallback = { buffer, size, count, userdata in
    transfer(userdata).receiveHeader(UnsafeRawBufferPointer(start: buffer, count: size * count))
}

private let writeCallback: CurlCalls.DataCallback = { buffer, size, count, userdata in
    transfer(userdata).receiveBody(UnsafeRawBufferPointer(start: buffer, count: size * count))
}

private let readCallback: CurlCalls.DataCallback = { buffer, size, count, userdata in
    transfer(userdata).sendBody(into: UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
}

private let seekCallback: CurlCalls.SeekCallback = { userdata, offset, origin in
    origin == SEEK_SET ? transfer(userdata).seekBody(to: Int64(offset)) : CurlCalls.seekFail
}

private let progressCallback: CurlCalls.ProgressCallback = {
    userdata, downloadTotal, downloaded, uploadTotal, uploaded in
    transfer(userdata).reportProgress(
        received: Int64(downloaded), expectedReceive: Int64(downloadTotal), sent: Int64(uploaded),
        expectedSend: Int64(uploadTotal))
}
