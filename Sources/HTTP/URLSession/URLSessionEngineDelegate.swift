import FileModel
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The session's delegate: hands each task's callbacks to its ``URLSessionTaskState`` on that task's own queue,
/// keeps the ends and answers of the labelled tasks no request of this launch waits for (``URLSessionOrphans``),
/// and follows no redirect (``HTTPClient`` checks and follows each hop itself).
final class URLSessionEngineDelegate: NSObject, URLSessionDataDelegate, URLSessionDownloadDelegate, Sendable {
    /// The tasks and what is kept for them, reached from the delegate queue, the engine's requests and the tasks'
    /// own queues: only in their box.
    private struct Tasks {
        var states: [ObjectIdentifier: URLSessionTaskState] = [:]
        /// Every task started in this process and not yet ended, orphans included: what FoundationNetworking's
        /// session is asked for. Its `getAllTasks` reads the session's task registry on the delegate queue while
        /// tasks are added on its work queue, a data race that ended the process (seen with four ranges at once).
        var started: [ObjectIdentifier: URLSessionTask] = [:]
        var orphans = URLSessionOrphans()
        /// The system's completion handler for a background session's events, called once they are all delivered.
        var backgroundEventsHandler: (@Sendable () -> Void)?
    }
    private let tasks = LockedValue(Tasks())
    /// Where a finished download task's file is moved before the session removes it.
    private let downloadFolder: URL

    init(downloadFolder: URL) {
        self.downloadFolder = downloadFolder
    }

    func keepBackgroundEventsHandler(_ handler: @escaping @Sendable () -> Void) {
        tasks.withLock { $0.backgroundEventsHandler = handler }
    }

    /// Every event of a background session was delivered: the system's handler is called, once.
    func backgroundEventsDelivered() {
        let handler = tasks.withLock { tasks -> (@Sendable () -> Void)? in
            defer { tasks.backgroundEventsHandler = nil }
            return tasks.backgroundEventsHandler
        }
        guard let handler else { return }
        #if canImport(FoundationNetworking)
            handler()
        #else
            // The system asks for it on the main queue (it updates the app's snapshot).
            DispatchQueue.main.async(execute: handler)
        #endif
    }

    #if !canImport(FoundationNetworking)
        func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) { backgroundEventsDelivered() }
    #endif

    func track(_ task: URLSessionTask, _ state: URLSessionTaskState) {
        tasks.withLock { tasks in
            tasks.states[ObjectIdentifier(task)] = state
            tasks.started[ObjectIdentifier(task)] = task
        }
    }

    /// Forgets a task that never ran (its request was cancelled before it started): nothing waits for its end.
    func untrack(_ task: URLSessionTask) {
        tasks.withLock { tasks in
            tasks.states[ObjectIdentifier(task)] = nil
            tasks.started[ObjectIdentifier(task)] = nil
        }
    }

    private func state(_ task: URLSessionTask) -> URLSessionTaskState? {
        tasks.withLock { $0.states[ObjectIdentifier(task)] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        guard let state = state(dataTask), let http = response as? HTTPURLResponse else {
            completionHandler(URLSessionOrphans.isOrphan(dataTask) ? .allow : .cancel)
            return
        }
        completionHandler(state.callbacks.sync { state.receive(response: http) } ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        // An orphan's answer to a chunk is not needed: the upload asks the server's offset after it.
        guard let state = state(dataTask) else {
            if !URLSessionOrphans.isOrphan(dataTask) { dataTask.cancel() }
            return
        }
        state.callbacks.async { if !state.receive(data, task: dataTask) { dataTask.cancel() } }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        guard let state = state(task) else {
            if !URLSessionOrphans.isOrphan(task) { task.cancel() }
            return
        }
        // Progress only: run on this thread (a sync onto the task's queue, idle while a body goes out, hops nowhere).
        if !state.callbacks.sync(execute: { state.sent(total: totalBytesSent, task: task) }) { task.cancel() }
    }

    func urlSession(
        _ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64,
        totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64
    ) {
        guard let state = state(downloadTask) else {
            if !URLSessionOrphans.isOrphan(downloadTask) { downloadTask.cancel() }
            return
        }
        // Progress only (the session writes the file): run on this thread, as a body's sending is.
        if !state.callbacks.sync(execute: { state.wrote(total: totalBytesWritten, task: downloadTask) }) {
            downloadTask.cancel()
        }
    }

    func urlSession(
        _ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL
    ) {
        if let state = state(downloadTask) {
            // The session removes `location` once this returns: the file is moved before, after the task's
            // callbacks queued ahead of this one.
            state.callbacks.sync { state.finishedDownloading(to: location, task: downloadTask, folder: downloadFolder) }
        } else if URLSessionOrphans.isOrphan(downloadTask) {
            let kept = downloadFolder.appendingPathComponent("officer-files-download-\(UUID().uuidString)")
            guard (try? FileManager.default.moveItem(at: location, to: kept)) != nil else { return }
            tasks.withLock { $0.orphans.downloaded(downloadTask, into: kept) }
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (state, ended) = tasks.withLock {
            tasks -> (URLSessionTaskState?, ([CheckedContinuation<Void, Never>], URL?)) in
            tasks.started[ObjectIdentifier(task)] = nil
            if let state = tasks.states.removeValue(forKey: ObjectIdentifier(task)) { return (state, ([], nil)) }
            guard URLSessionOrphans.isOrphan(task) else { return (nil, ([], nil)) }
            return (nil, tasks.orphans.end(task, failed: error != nil))
        }
        if let state {
            let response = task.response
            state.callbacks.async { state.complete(error: error, response: response) }
        }
        if let drop = ended.1 { try? FileManager.default.removeItem(at: drop) }
        for waiter in ended.0 { waiter.resume() }
    }

    // MARK: Orphans

    /// Ends every wait of this launch with `CancellationError` while the tasks go on, as the system does to an app it
    /// terminates: their callbacks from now on are an orphan's.
    func abandonAll() {
        let abandoned = tasks.withLock { tasks -> [URLSessionTaskState] in
            defer { tasks.states = [:] }
            return Array(tasks.states.values)
        }
        for state in abandoned { state.abandon() }
    }

    /// Waits for the end of `task` if it is an orphan (a task this launch tracks is its own request's to wait for).
    func waitForEnd(of task: URLSessionTask) async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let waits = tasks.withLock { tasks in
                tasks.states[ObjectIdentifier(task)] == nil && URLSessionOrphans.isOrphan(task)
                    && tasks.orphans.wait(for: task, waiter)
            }
            if !waits { waiter.resume() }
        }
    }

    /// The answer of an orphan labelled `label` that asked what `request` asks: an ended one at once; one under way
    /// in `session` once it ends. Nil: none, the request is sent.
    func claim(_ label: String, asking request: URLRequest, in session: URLSession) async -> URLSessionOrphans.Answer? {
        if let answer = tasks.withLock({ $0.orphans.claim(label, asking: request) }) { return answer }
        for task in await runningTasks(in: session)
        where task.taskDescription == label && URLSessionOrphans.asksTheSame(task.originalRequest, request) {
            await waitForEnd(of: task)
        }
        return tasks.withLock { $0.orphans.claim(label, asking: request) }
    }

    /// Forgets an unclaimed answer labelled `label`.
    func forget(_ label: String) {
        for file in tasks.withLock({ $0.orphans.forget(label) }) { try? FileManager.default.removeItem(at: file) }
    }

    #if canImport(FoundationNetworking)
        /// The tasks this process started and has not seen end (FoundationNetworking's session cannot be asked).
        func startedAndNotEnded() -> [URLSessionTask] { tasks.withLock { Array($0.started.values) } }
    #endif

    /// The session's tasks under way: the system's answer where tasks outlive the process (a background session's
    /// after a relaunch); where they cannot (FoundationNetworking), the ones this process started and has not seen
    /// end.
    func runningTasks(in session: URLSession) async -> [URLSessionTask] {
        #if canImport(FoundationNetworking)
            return startedAndNotEnded()
        #else
            return await withCheckedContinuation { (done: CheckedContinuation<[URLSessionTask], Never>) in
                session.getAllTasks { tasks in done.resume(returning: tasks.filter { $0.state == .running }) }
            }
        #endif
    }
}
