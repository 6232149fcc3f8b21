import FileModel
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One task's side of the URLSession engine: the receiver its delegate callbacks feed (on the task's own serial
/// queue, ``callbacks``), the low-speed rule, the bandwidth limit, and the continuation resumed exactly once when
/// the task completes. A download task's body is in a file of the engine's when it completes: the engine hands it
/// to the receiver then (``Completion/downloaded(_:status:effectiveURL:)``).
final class URLSessionTaskState: @unchecked Sendable {  // Confined to `callbacks`, but for `ending`'s box.
    /// Where the delegate runs this task's callbacks, in the order the session gave them: off the session's one
    /// delegate queue, so that one task's disk writes (a data task's body stored as it comes) never hold up another
    /// task's answer, and the ranges of one download are written side by side.
    let callbacks = DispatchQueue(label: "officer-files.urlsession.task", qos: .userInitiated)
    /// How a task ended well.
    enum Completion: Sendable {
        /// A data or upload task: its response, its body taken as it came.
        case response(HTTPResponse)
        /// A download task: its body is in `file` (the engine's own, to be handed to the receiver and removed).
        case downloaded(URL, status: Int?, effectiveURL: String?)
    }

    let receiver: ResponseReceiver
    private var lowSpeed: LowSpeedWatch
    private let expectedSend: Int64?
    private var received: Int64 = 0
    private var sent: Int64 = 0
    // The delegate is handed bytes that already moved, so the limit is kept by suspending the task until they are
    // paid for: the socket's buffers fill and TCP holds the peer back, as libcurl's pause does.
    private var receivePacer: Pace?
    private var sendPacer: Pace?
    /// A download task's head was handed to the receiver (at its first bytes, or at its end for an empty body).
    private var headTaken = false
    /// Where a download task's body was moved when the session finished writing it.
    private var downloaded: URL?
    /// Whether a data task's chunks are gathered before they are stored: into a file only (bytes kept in memory
    /// are appended to the body as they come).
    private let gathers: Bool
    /// A data task's chunks not yet stored.
    private var gathered = Data()
    /// FoundationNetworking hands a data task's body over in chunks of 16 KiB: into a file they are stored in
    /// writes of this size, as libcurl's engine stores its buffers (a write call per chunk was a seventh of a 1 GiB
    /// download's time there).
    static let gatherLimit = 256 << 10

    /// What crosses threads (a cancel from the request's task, the pacer's timer, the clock, the callbacks): only
    /// in its box.
    private struct Ending {
        var cancelled = false
        /// The wait was ended while the task goes on (``abandon()``): a cancel no longer reaches the task.
        var abandoned = false
        var suspended = false
        var continuation: CheckedContinuation<Completion, any Error>?
        /// How the task ended when it ended before a wait was attached (a cancel as the request began).
        var endedUnwaited: Result<Completion, any Error>?
        var clock: Task<Void, Never>?
    }
    private let ending = LockedValue(Ending())

    init(
        receiver: ResponseReceiver, lowSpeed: LowSpeedWatch, expectedSend: Int64?, request: HTTPRequest,
        configuration: HTTPClientConfiguration
    ) {
        self.receiver = receiver
        self.lowSpeed = lowSpeed
        self.expectedSend = expectedSend
        gathers = request.sink.isFile
        // FoundationNetworking has queued a loopback body's callbacks before a suspension takes hold, so the engine
        // refuses a limit there (``URLSessionEngine``); Apple's URLSession stops delivery when suspended.
        #if !canImport(FoundationNetworking)
            receivePacer = Pace.of(request, sending: false, configuration: configuration)
            sendPacer = Pace.of(request, sending: true, configuration: configuration)
        #endif
    }

    /// Takes the wait for the task's end. False when there is nothing to start: the request was cancelled before
    /// (a task cancelled before it ran may never report an end), or the task already ended; the wait then ends at
    /// once, with `CancellationError` or that end.
    func attach(_ continuation: CheckedContinuation<Completion, any Error>) -> Bool {
        let ended = ending.withLock { ending -> Result<Completion, any Error>? in
            if let endedUnwaited = ending.endedUnwaited { return endedUnwaited }
            if ending.cancelled { return .failure(CancellationError()) }
            ending.continuation = continuation
            return nil
        }
        guard let ended else { return true }
        continuation.resume(with: ended)
        return false
    }

    /// Marks the task cancelled; a task held by the pacer is let go so its cancellation can complete.
    func cancel(_ task: URLSessionTask) {
        let wasSuspended = ending.withLock { ending -> Bool? in
            if ending.abandoned { return nil }
            ending.cancelled = true
            defer { ending.suspended = false }
            return ending.suspended
        }
        guard let wasSuspended else { return }
        task.cancel()
        if wasSuspended { task.resume() }
    }

    /// Ends the wait with `CancellationError` and leaves the task to go on, its callbacks no longer this state's: what
    /// the system does to a terminated app's background tasks.
    func abandon() {
        let waiting = ending.withLock { ending -> CheckedContinuation<Completion, any Error>? in
            ending.abandoned = true
            ending.clock?.cancel()
            defer { ending.continuation = nil }
            return ending.continuation
        }
        waiting?.resume(throwing: CancellationError())
    }

    /// Holds the task for `seconds` (at most once at a time), then lets it go on unless it was cancelled meanwhile.
    private func pause(_ task: URLSessionTask, for seconds: Double) {
        guard seconds > 0.001 else { return }
        let holds = ending.withLock { ending -> Bool in
            guard !ending.cancelled, !ending.suspended else { return false }
            ending.suspended = true
            return true
        }
        guard holds else { return }
        lowSpeed.notePause()
        task.suspend()
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [weak self] in
            guard let self else { return }
            let resumes = self.ending.withLock { ending -> Bool in
                defer { ending.suspended = false }
                return ending.suspended && !ending.cancelled
            }
            if resumes { task.resume() }
        }
    }

    private var isCancelled: Bool { ending.withLock { $0.cancelled } }

    /// The whole transfer's time limit, if the configuration sets one: past it on `clock`, the task fails as
    /// timed out.
    func startClock(total: Double?, on clock: any Clock<Duration>, task: URLSessionTask) {
        guard let total else { return }
        let started = Task { [weak self] in
            try? await clock.sleep(for: .seconds(total))
            guard !Task.isCancelled, let self else { return }
            self.fail(
                .transport(
                    request: self.receiver.label, code: TransportCode.timedOut,
                    message: "timed out after \(Int(total)) s"), task: task)
        }
        ending.withLock { $0.clock = started }
    }

    /// Stops the task with `failure` (reported when it completes).
    private func fail(_ failure: HTTPError, task: URLSessionTask) {
        if receiver.failure == nil { receiver.failure = failure }
        task.cancel()
    }

    // MARK: Delegate callbacks (on ``callbacks``)

    /// The final response's head: false stops the task before any body byte is stored.
    func receive(response: HTTPURLResponse) -> Bool {
        guard let refusal = receiver.takeHead(status: response.statusCode, fields: response.fields) else { return true }
        receiver.failure = refusal
        return false
    }

    /// One chunk of the body; false stops the task. Into a file, chunks are gathered into writes of up to
    /// ``gatherLimit`` (``storeGathered()``).
    func receive(_ data: Data, task: URLSessionTask) -> Bool {
        if isCancelled { return false }
        received += Int64(data.count)
        if gathers {
            gathered.append(data)
            if gathered.count >= Self.gatherLimit, !storeGathered() { return false }
        } else if !data.withUnsafeBytes({ receiver.receive($0) }) {
            return false
        }
        guard progressed(task: task, expectedReceive: task.countOfBytesExpectedToReceive) else { return false }
        if let wait = receivePacer?.charge(data.count) { pause(task, for: wait) }
        return true
    }

    /// Hands the gathered bytes to the receiver; false when it refused them.
    private func storeGathered() -> Bool {
        guard !gathered.isEmpty else { return true }
        defer { gathered.removeAll(keepingCapacity: true) }
        return gathered.withUnsafeBytes { receiver.receive($0) }
    }

    /// A download task's head, once: false when the receiver refused it (the task then stops before its body, as a
    /// data task's does), or when there is none yet to take.
    private func takeHead(of task: URLSessionTask) -> Bool {
        if headTaken { return receiver.failure == nil }
        // FoundationNetworking may report bytes before it sets the task's response: the head waits for a later call.
        guard let http = task.response as? HTTPURLResponse else { return true }
        headTaken = true
        return receive(response: http)
    }

    /// A download task wrote `total` bytes into the session's file: progress (never stored bytes: those are counted
    /// when the receiver takes them), and the low-speed rule.
    func wrote(total: Int64, task: URLSessionTask) -> Bool {
        if isCancelled || !takeHead(of: task) { return false }
        let delta = Int(max(0, total - received))
        received = total
        if receiver.isPastLimit(total) { return false }
        guard progressed(task: task, expectedReceive: task.countOfBytesExpectedToReceive) else { return false }
        // The receive limit holds for a download task as for a data task (Apple's: FoundationNetworking refuses one).
        if let wait = receivePacer?.charge(delta) { pause(task, for: wait) }
        return true
    }

    /// A download task's body is whole in the session's `location`, which is gone once this returns: it is moved
    /// into `folder` for the engine to hand to the receiver.
    func finishedDownloading(to location: URL, task: URLSessionTask, folder: URL) {
        guard takeHead(of: task), headTaken else {
            if receiver.failure == nil {
                receiver.failure = .transport(
                    request: receiver.label, code: TransportCode.gotNothing,
                    message: "the download ended without an answer")
            }
            return
        }
        let kept = folder.appendingPathComponent("officer-files-download-\(UUID().uuidString)")
        do {
            try FileManager.default.moveItem(at: location, to: kept)
            downloaded = kept
        } catch {
            receiver.failure = .localFile(path: kept.path, message: "\(error)")
        }
    }

    /// Body bytes went out.
    func sent(total: Int64, task: URLSessionTask) -> Bool {
        let delta = Int(max(0, total - sent))
        sent = total
        guard progressed(task: task, expectedReceive: nil) else { return false }
        if let wait = sendPacer?.charge(delta) { pause(task, for: wait) }
        return true
    }

    private func progressed(task: URLSessionTask, expectedReceive: Int64?) -> Bool {
        if lowSpeed.isTooSlow(moved: received + sent, paused: false) {
            receiver.failure = lowSpeed.failure(label: receiver.label)
            return false
        }
        receiver.progress(
            received: received, expectedReceive: (expectedReceive ?? 0) > 0 ? expectedReceive : nil, sent: sent,
            expectedSend: expectedSend)
        return true
    }

    /// Resumes the waiting task exactly once.
    func complete(error: (any Error)?, response: URLResponse?) {
        ending.withLock { $0.clock }?.cancel()
        // What came is stored whatever the end (a range broken off keeps its bytes, as libcurl's writes do).
        if receiver.failure == nil { _ = storeGathered() }
        let outcome: Result<Completion, any Error>
        if error == nil, !isCancelled, receiver.failure == nil, let downloaded {
            outcome = .success(
                .downloaded(
                    downloaded, status: (response as? HTTPURLResponse)?.statusCode,
                    effectiveURL: response?.url?.absoluteString))
        } else if isCancelled {
            outcome = .failure(CancellationError())
        } else if let failure = receiver.failure {
            outcome = .failure(failure)
        } else if let error {
            outcome = .failure(
                Self.transportError(
                    error, label: receiver.label, midBody: receiver.headersComplete ? received : nil,
                    sentBeforeHead: receiver.headersComplete ? 0 : sent))
        } else {
            outcome = Result { () throws(HTTPError) -> Completion in
                .response(
                    try receiver.response(
                        status: (response as? HTTPURLResponse)?.statusCode,
                        effectiveURL: response?.url?.absoluteString))
            }.mapError { $0 as any Error }
        }
        if case .failure = outcome, let downloaded { try? FileManager.default.removeItem(at: downloaded) }
        let waiting = ending.withLock { ending -> CheckedContinuation<Completion, any Error>? in
            defer { ending.continuation = nil }
            if ending.continuation == nil { ending.endedUnwaited = outcome }
            return ending.continuation
        }
        waiting?.resume(with: outcome)
    }

    /// URLSession's failures in the library's transport codes, so retries and wording treat both engines alike;
    /// one it has no code for keeps URLError's own (negative) number and is never retried. FoundationNetworking
    /// reports most failures as `unknown`: one that came after the head (`midBody` bytes in) broke the connection
    /// under way, or ended the body short of its `Content-Length`, which is worth another attempt as it is with libcurl;
    /// one while a body was going out, before any answer (`sentBeforeHead` bytes sent), is a send failure (a peer
    /// that reset the connection under an upload), retried as libcurl's is.
    static func transportError(
        _ error: any Error, label: String, midBody: Int64? = nil, sentBeforeHead: Int64 = 0
    ) -> HTTPError {
        guard let urlError = error as? URLError else {
            return .transport(request: label, code: -1, message: "\(error)")
        }
        let code: Int
        switch urlError.code {
        case .cannotFindHost, .dnsLookupFailed: code = TransportCode.couldNotResolve
        case .cannotConnectToHost, .notConnectedToInternet: code = TransportCode.couldNotConnect
        case .timedOut: code = TransportCode.timedOut
        case .networkConnectionLost: code = TransportCode.receiveError
        case .zeroByteResource, .badServerResponse: code = TransportCode.gotNothing
        case .secureConnectionFailed: code = TransportCode.tlsHandshake
        case .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
            .serverCertificateHasUnknownRoot:
            code = TransportCode.untrustedCertificate
        case .unknown where midBody != nil: code = TransportCode.receiveError
        case .unknown where sentBeforeHead > 0: code = TransportCode.sendError
        default: code = urlError.errorCode
        }
        return .transport(request: label, code: code, message: urlError.localizedDescription)
    }
}

extension HTTPURLResponse {
    /// The response's header fields as ``ResponseReceiver/takeHead(status:fields:)`` takes them.
    var fields: [(name: String, value: String)] { allHeaderFields.map { (name: "\($0.key)", value: "\($0.value)") } }
}
