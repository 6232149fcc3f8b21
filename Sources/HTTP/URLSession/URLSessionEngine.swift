import FileModel
import Foundation
import Platform

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The URLSession engine: Foundation's own HTTP stack (the system's on Apple platforms, FoundationNetworking
/// elsewhere), the one an iOS app links. Every request body goes from a file, never from memory a background
/// session could not hold: bytes in memory, a file range or a multipart body is first written to a snapshot file
/// (checked, for a file's bytes), then sent.
///
/// On Apple platforms `--bwlimit` is kept by suspending the task while it is ahead of its pace. What it cannot do
/// is refused before anything is sent, never done halfway: where FoundationNetworking runs, a bandwidth limit (its
/// suspension lags the callbacks it has queued), a CA file or `--insecure` (its TLS settings are not per request);
/// everywhere, a pinned key (a challenge handler not yet written).
package final class URLSessionEngine: HTTPEngine, Sendable {
    /// The process-wide engine, whose session keeps connections alive between requests.
    package static let shared = URLSessionEngine()

    private let delegate: URLSessionEngineDelegate
    private let queue: OperationQueue
    /// The dispatch queue the delegate's operations run on.
    private let delegateQueue: DispatchQueue
    private let session: URLSession
    /// Where data tasks go: the session itself, but beside a background session on Apple platforms, which carries
    /// only upload tasks from a file and download tasks (a data task there fails once the app is suspended).
    private let dataSession: URLSession
    /// Where FoundationNetworking runs, the ranges an unnamed session sends as data tasks (``asDownloadTask(_:)``)
    /// go in a session of their own, with a delegate queue of its own: a range's bytes come 16 KiB at a time
    /// through FoundationNetworking's session queue and the delegate's, and another request there (a stat, an
    /// upload's chunk) is never queued behind them. The session itself elsewhere.
    private let rangeSession: URLSession
    /// The range session's delegate queue (where it is a session of its own).
    private let rangeQueue: OperationQueue
    /// The dispatch queue ``rangeQueue``'s operations run on (the operation queue does not keep it).
    private let rangeDelegateQueue: DispatchQueue
    /// Where snapshot bodies are written for the time of one request.
    private let temporaryFolder: URL
    /// The session's identifier, when it is the app's background session.
    package let sessionIdentifier: String?
    /// This launch was ended by ``simulateTermination()``: nothing more is sent until ``simulateRelaunch()``.
    private let terminated = LockedValue(false)

    /// The engines of the named sessions made in this process: the system allows one session per identifier.
    private static let named = LockedValue<[String: URLSessionEngine]>([:])

    /// The engine of the session named `identifier` (made on first use): a background session on Apple platforms,
    /// whose tasks go on while the app is away; a default one where FoundationNetworking runs (it has none).
    package static func forSession(_ identifier: String) -> URLSessionEngine {
        named.withLock { engines in
            if let engine = engines[identifier] { return engine }
            let engine = URLSessionEngine(sessionIdentifier: identifier)
            engines[identifier] = engine
            return engine
        }
    }

    /// An engine with a session of its own (named `sessionIdentifier`, for ``forSession(_:)``); snapshot bodies
    /// go to `temporaryFolder` (the system's by default).
    package init(
        temporaryFolder: URL = FileManager.default.temporaryDirectory, sessionIdentifier: String? = nil
    ) {
        self.temporaryFolder = temporaryFolder
        self.sessionIdentifier = sessionIdentifier
        delegate = URLSessionEngineDelegate(downloadFolder: temporaryFolder)
        (queue, delegateQueue) = Self.serialDelegateQueue("officer-files.urlsession")
        session = URLSession(
            configuration: Self.sessionConfiguration(identifier: sessionIdentifier), delegate: delegate,
            delegateQueue: queue)
        (rangeQueue, rangeDelegateQueue) = Self.serialDelegateQueue("officer-files.urlsession.ranges")
        #if canImport(FoundationNetworking)
            dataSession = session
            rangeSession =
                sessionIdentifier == nil
                ? URLSession(configuration: Self.sessionConfiguration(), delegate: delegate, delegateQueue: rangeQueue)
                : session
        #else
            rangeSession = session
            dataSession =
                sessionIdentifier == nil
                ? session
                : URLSession(configuration: Self.sessionConfiguration(), delegate: delegate, delegateQueue: queue)
        #endif
    }

    /// A serial delegate queue running on a dispatch queue of its own, and that dispatch queue. FoundationNetworking
    /// queues a download task's every 16 KiB for the delegate, each holding its bytes until it runs, with nothing
    /// holding the network back: on a dispatch queue of its own the delegate keeps up (a 1 GiB download in four
    /// ranges peaked at 150 MiB on the default one, 54 MiB here; bench/download). The operation queue does not keep
    /// its underlying queue (`unowned(unsafe)`): the engine keeps it.
    private static func serialDelegateQueue(_ name: String) -> (OperationQueue, DispatchQueue) {
        let operations = OperationQueue()
        operations.maxConcurrentOperationCount = 1
        operations.name = name
        let underlying = DispatchQueue(label: name + ".delegate", qos: .userInitiated)
        operations.underlyingQueue = underlying
        return (operations, underlying)
    }

    /// Keeps the completion handler the system gave the app for this session's events
    /// (`application(_:handleEventsForBackgroundURLSession:completionHandler:)`): called once the session has
    /// delivered them all.
    package func onBackgroundEventsDelivered(_ handler: @escaping @Sendable () -> Void) {
        delegate.keepBackgroundEventsHandler(handler)
    }

    /// What the system's `urlSessionDidFinishEvents(forBackgroundURLSession:)` does on Apple platforms: the kept
    /// handler is called, once (FoundationNetworking never sends that event; tests send it here).
    package func backgroundEventsDelivered() { delegate.backgroundEventsDelivered() }

    /// A download task's bytes are the receiver's only once the task is whole: a range goes in pieces of 16 MiB, so
    /// an interruption (or a pause the journal records) loses at most one piece per range. Where FoundationNetworking
    /// runs, a piece of an unnamed session is a data task (``asDownloadTask(_:)``) whose bytes wait in the queues
    /// (FoundationNetworking's, the task's own ``URLSessionTaskState/callbacks``) with nothing holding the network
    /// back: pieces of 2 MiB bound that wait (a 1 GiB download in four ranges: 50–57 MiB peak; 58–66 MiB in pieces
    /// of 4 MiB, no faster).
    package var fileBodyPieceLimit: Int64? { usesDownloadTasks ? 16 << 20 : 2 << 20 }

    /// Whether a range into a file goes as a download task (``asDownloadTask(_:)``): always on Apple platforms;
    /// where FoundationNetworking runs, only for a named session (an app's, which stands for a background one).
    private var usesDownloadTasks: Bool {
        #if canImport(FoundationNetworking)
            sessionIdentifier != nil
        #else
            true
        #endif
    }

    /// Where FoundationNetworking runs, a tus chunk is at most what goes from memory (``memoryBodyLimit``): a body
    /// sent from a file there is unsafe to cancel.
    package var uploadBodyPieceLimit: Int64? {
        #if canImport(FoundationNetworking)
            Self.memoryBodyLimit
        #else
            nil
        #endif
    }

    /// "URLSession", and the Foundation it runs on.
    package var versionDescription: String {
        #if canImport(FoundationNetworking)
            "URLSession (FoundationNetworking)"
        #else
            "URLSession"
        #endif
    }

    /// No cache, no cookies, no stored credentials: every answer comes from the server, and only the request's own
    /// token is sent.
    private static func sessionConfiguration(identifier: String? = nil) -> URLSessionConfiguration {
        #if canImport(FoundationNetworking)
            let configuration = URLSessionConfiguration.ephemeral
        #else
            let configuration =
                identifier.map { identifier in
                    let background = URLSessionConfiguration.background(withIdentifier: identifier)
                    background.sessionSendsLaunchEvents = true
                    background.isDiscretionary = false
                    return background
                } ?? URLSessionConfiguration.ephemeral
        #endif
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCredentialStorage = nil
        configuration.httpMaximumConnectionsPerHost = 16
        configuration.timeoutIntervalForResource = 7 * 24 * 3600
        return configuration
    }

    /// Sends one attempt as a URLSession task.
    package func perform(
        _ request: HTTPRequest, configuration: HTTPClientConfiguration,
        onProgress: (@Sendable (TransferProgress) -> Void)?
    ) async throws -> HTTPResponse {
        let label = "\(request.method) \(URLRedaction.redacted(request.url))"
        try request.checkBeforeSending(label: label)
        try Self.checkSupported(request, configuration: configuration, label: label)
        guard let url = URL(string: request.url) else { throw HTTPError.unsupportedURL(request.url) }
        if terminated.withLock({ $0 }) { throw CancellationError() }
        let receiver = try ResponseReceiver(request: request, onProgress: onProgress)
        let body = try await SnapshotBody(
            request: request, folder: temporaryFolder, memoryLimit: Self.memoryBodyTaskLimit)
        defer { body.remove() }

        var urlRequest = Self.urlRequest(for: request, url: url, body: body, configuration: configuration)
        if let answer = await claimedAnswer(to: request, urlRequest) {
            defer { try? FileManager.default.removeItem(at: answer.file) }
            return try Self.hand(answer, to: receiver)
        }

        // A fresh connection is a session of its own, invalidated after this one request.
        let session =
            request.freshConnection
            ? URLSession(configuration: Self.sessionConfiguration(), delegate: delegate, delegateQueue: queue)
            : self.session
        defer { if request.freshConnection { session.finishTasksAndInvalidate() } }
        let state = URLSessionTaskState(
            receiver: receiver,
            lowSpeed: LowSpeedWatch(request: request, configuration: configuration),
            expectedSend: body.length, request: request, configuration: configuration)
        let task: URLSessionTask
        switch body.source {
        case .none where asDownloadTask(request):
            task = session.downloadTask(with: urlRequest)
        case .none:
            if !["GET", "HEAD"].contains(request.method) { urlRequest.httpBody = Data() }
            let carrier =
                request.freshConnection ? session : Self.isRangeIntoFile(request) ? rangeSession : dataSession
            task = carrier.dataTask(with: urlRequest)
        case .file(let file, let length):
            urlRequest.setValue(String(length), forHTTPHeaderField: "Content-Length")
            task = Self.uploadTask(in: session, urlRequest, file: file, length: length)
        case .memory(let data):
            urlRequest.setValue(String(data.count), forHTTPHeaderField: "Content-Length")
            task = session.uploadTask(with: urlRequest, from: data)
        }
        task.taskDescription = request.transferLabel
        // Tracked before anything can cancel it: a task's end always finds its state, even one cancelled (by a
        // Ctrl-C as the request began) before its wait was attached, which otherwise never ended.
        delegate.track(task, state)
        let completion = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard state.attach(continuation) else {
                    delegate.untrack(task)
                    task.cancel()
                    return
                }
                state.startClock(total: configuration.totalTimeout, on: configuration.clock, task: task)
                task.resume()
            }
        } onCancel: {
            state.cancel(task)
        }
        switch completion {
        case .response(let response): return response
        case .downloaded(let file, let status, let effectiveURL):
            defer { try? FileManager.default.removeItem(at: file) }
            try Self.hand(file, to: receiver)
            return try receiver.response(status: status, effectiveURL: effectiveURL)
        }
    }

    /// The answer an orphan download task of the same label and fields brought (a background session's, run while
    /// the app was away), if one did: the range is then not asked again.
    private func claimedAnswer(to request: HTTPRequest, _ urlRequest: URLRequest) async -> URLSessionOrphans.Answer? {
        guard let label = request.transferLabel, asDownloadTask(request) else { return nil }
        return await delegate.claim(label, asking: urlRequest, in: session)
    }

    /// A range into a file goes as a download task: the session writes the body to a file as it comes (bounded
    /// memory, however slow the disk), and a background session can carry it while the app is away. A whole
    /// unbounded stream stays a data task: its bytes are stored as they come, not copied once more at the end.
    /// Where FoundationNetworking runs, an unnamed session (the CLI's; a named one stands for an app's background
    /// session) makes every request a data task: its download task opens, seeks, writes and closes its file for
    /// every 16 KiB, and its `try!` ends the process if that file is gone (a 1 GiB range took 3.8 s that way,
    /// 2.1–2.3 s as data tasks). Suspending a data task there to hold the network back delivers bytes again (seen:
    /// 9 GB delivered for a 1 GiB file), so the wait is bounded by the piece's size instead (``fileBodyPieceLimit``).
    func asDownloadTask(_ request: HTTPRequest) -> Bool {
        usesDownloadTasks && Self.isRangeIntoFile(request)
    }

    /// A GET of a range whose bytes go into a file: a download task, or a data task in ``rangeSession``.
    static func isRangeIntoFile(_ request: HTTPRequest) -> Bool {
        request.method == "GET" && request.sink.isFile && request.headers["Range"] != nil
    }

    /// Gives the receiver an orphan's answer as its own task's would have come.
    static func hand(_ answer: URLSessionOrphans.Answer, to receiver: ResponseReceiver) throws -> HTTPResponse {
        if let refusal = receiver.takeHead(status: answer.response.statusCode, fields: answer.response.fields) {
            throw refusal
        }
        try hand(answer.file, to: receiver)
        return try receiver.response(
            status: answer.response.statusCode, effectiveURL: answer.response.url?.absoluteString)
    }

    /// The `URLRequest` of one attempt: its method, its fields (the user agent, the request's own, the token, the
    /// body's type), no cookies, no cache, the stall timeout as the session's idle limit.
    static func urlRequest(
        for request: HTTPRequest, url: URL, body: SnapshotBody, configuration: HTTPClientConfiguration
    ) -> URLRequest {
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method
        urlRequest.timeoutInterval = max(1, configuration.stallTimeout)
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        urlRequest.httpShouldHandleCookies = false
        urlRequest.setValue(configuration.userAgent, forHTTPHeaderField: "User-Agent")
        for field in request.headers { urlRequest.addValue(field.value, forHTTPHeaderField: field.name) }
        // HTTPClient sends a credential only to its own origin; its token was checked when it was made.
        if let credential = request.credential {
            urlRequest.setValue("Bearer \(credential.token)", forHTTPHeaderField: "Authorization")
        }
        if let contentType = body.contentType { urlRequest.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        return urlRequest
    }

    /// Gives the receiver a download task's body from the file the session wrote, as a data task's would have come:
    /// its checks (the length, the range) and its sink see the same bytes in the same order.
    static func hand(_ file: URL, to receiver: ResponseReceiver) throws {
        let descriptor = SystemCalls.open(file.path, O_RDONLY)
        guard descriptor >= 0 else {
            throw HTTPError.localFile(path: file.path, message: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            try Task.checkCancellation()
            let count = buffer.withUnsafeMutableBytes { bytes in
                SystemCalls.retryingInterrupts { read(descriptor, bytes.baseAddress, bytes.count) }
            }
            guard count >= 0 else {
                throw HTTPError.localFile(path: file.path, message: String(cString: strerror(errno)))
            }
            if count == 0 { return }
            let taken = buffer.withUnsafeBytes { receiver.receive(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            if !taken, let failure = receiver.failure { throw failure }
        }
    }

    /// Bodies up to this size go from memory where FoundationNetworking runs (read from their snapshot file). Its
    /// upload from a file reads the file asynchronously and resumes the paused transfer when a read completes; a
    /// read that completes after the transfer ended (the task cancelled, the server answering before the whole
    /// body) makes it resume a handle that is gone, and its `try!` ends the process
    /// (`_EasyHandle._PauseState.setState`, seen in the tests three times). From memory nothing is read later, and
    /// tus chunks stay within this (``uploadBodyPieceLimit``); it is faster too (1 GiB by tus on loopback: 10.7 s
    /// from files, 5.0 s in chunks of 4 MiB from memory). Each such body costs about three times its size at the
    /// peak (FoundationNetworking copies it once more), so the limit is what keeps a 200 MiB upload within 64 MiB
    /// (57 MiB; 16 MiB chunks took 106 MiB, 3.9 s). A larger body in one request (a seed server's multipart form,
    /// a single S3 PUT, an S3 part) still goes from its file, and a cancel during it can still meet the crash there.
    static let memoryBodyLimit: Int64 = 4 << 20

    /// The largest body snapshotted in memory rather than in a file: ``memoryBodyLimit`` where FoundationNetworking
    /// runs (the bytes go from memory there anyway; writing and reading back a file for each tus chunk took about
    /// half the upload's time), nil on Apple platforms, where a background session sends only files.
    static var memoryBodyTaskLimit: Int64? {
        #if canImport(FoundationNetworking)
            memoryBodyLimit
        #else
            nil
        #endif
    }

    /// The upload task of a snapshot file: from the file (what a background session needs), or, where
    /// FoundationNetworking runs, one up to ``memoryBodyLimit`` from memory.
    static func uploadTask(in session: URLSession, _ request: URLRequest, file: URL, length: Int64)
        -> URLSessionUploadTask
    {
        #if canImport(FoundationNetworking)
            if length <= memoryBodyLimit, let data = try? Data(contentsOf: file) {
                return session.uploadTask(with: request, from: data)
            }
        #endif
        return session.uploadTask(with: request, fromFile: file)
    }

    /// The labels (``HTTPRequest/transferLabel``) of the tasks the session has under way, handed to `report` (on the
    /// session's queue where the system answers): what a background session reports after a relaunch, for the
    /// journal's transfers to be matched with.
    package func labelsOfTasksUnderWay(_ report: @escaping @Sendable ([String]) -> Void) {
        #if canImport(FoundationNetworking)
            report(delegate.startedAndNotEnded().compactMap(\.taskDescription))
        #else
            session.getAllTasks { tasks in report(tasks.filter { $0.state == .running }.compactMap(\.taskDescription)) }
        #endif
    }

    /// Waits for the orphan tasks (an earlier launch's, carried on while the app was away) whose labels start with
    /// `prefix`: an upload's next HEAD then reads the offset they reached instead of racing them.
    package func settleTasks(labelled prefix: String) async {
        for task in await delegate.runningTasks(in: session)
        where (task.taskDescription ?? "").hasPrefix(prefix) {
            await delegate.waitForEnd(of: task)
        }
    }

    /// Drops an orphan's answer labelled `label` nobody claimed (the journal holds that piece already).
    package func releaseTask(labelled label: String) async { delegate.forget(label) }

    /// What the system does to an app it terminates, for the tests of adoption (FoundationNetworking has no
    /// background session to outlive a process): every request under way ends with `CancellationError` while its
    /// task goes on in the session, and nothing more is sent until ``simulateRelaunch()``.
    package func simulateTermination() {
        terminated.withLock { $0 = true }
        delegate.abandonAll()
    }

    /// The app was launched again: requests are sent (or claim what the tasks of the last launch brought).
    package func simulateRelaunch() { terminated.withLock { $0 = false } }

    /// Refuses, before anything is sent, what this engine cannot do as asked.
    private static func checkSupported(
        _ request: HTTPRequest, configuration: HTTPClientConfiguration, label: String
    ) throws(HTTPError) {
        #if canImport(FoundationNetworking)
            if [request.maxReceiveBytesPerSecond, request.maxSendBytesPerSecond].contains(where: { ($0 ?? 0) > 0 })
                || configuration.bandwidth != nil
            {
                throw HTTPError.notAvailable(request: label, what: "a bandwidth limit")
            }
            if configuration.insecure { throw HTTPError.notAvailable(request: label, what: "turning TLS checks off") }
            if configuration.caCertificatePath != nil {
                throw HTTPError.notAvailable(request: label, what: "a CA file of its own")
            }
        #endif
        // Pinning is a challenge handler on Apple's URLSession (docs/PORTING.md), not written yet: refused
        // everywhere rather than sent unchecked.
        if !configuration.pinnedPublicKeys.isEmpty {
            throw HTTPError.notAvailable(request: label, what: "pinning a server's key")
        }
    }
}
