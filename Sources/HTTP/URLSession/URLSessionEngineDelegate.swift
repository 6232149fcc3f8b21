import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The session's delegate: hands each task's callbacks to its ``URLSessionTaskState`` and follows no redirect
/// (``HTTPClient`` checks and follows each hop itself).
final class URLSessionEngineDelegate: NSObject, URLSessionDataDelegate, URLSessionDownloadDelegate,
    @unchecked Sendable
{  // Serial queue.
    private let lock = NSLock()
    private var states: [ObjectIdentifier: URLSessionTaskState] = [:]
    /// Where a finished download task's file is moved before the session removes it.
    private let downloadFolder: URL
    /// The system's completion handler for a background session's events, called once they are all delivered.
    private var backgroundEventsHandler: (@Sendable () -> Void)?

    init(downloadFolder: URL) {
        self.downloadFolder = downloadFolder
    }

    func keepBackgroundEventsHandler(_ handler: @escaping @Sendable () -> Void) {
        lock.withLock { backgroundEventsHandler = handler }
    }

    /// Every event of a background session was delivered: the system's handler is called, once.
    func backgroundEventsDelivered() {
        let handler = lock.withLock { () -> (@Sendable () -> Void)? in
            defer { backgroundEventsHandler = nil }
            return backgroundEventsHandler
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
        lock.withLock { states[ObjectIdentifier(task)] = state }
    }

    private func state(_ task: URLSessionTask) -> URLSessionTaskState? {
        lock.withLock { states[ObjectIdentifier(task)] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        guard let state = state(dataTask), let http = response as? HTTPURLResponse else {
            completionHandler(.cancel)
            return
        }
        completionHandler(state.receive(response: http) ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let state = state(dataTask), state.receive(data, task: dataTask) else {
            dataTask.cancel()
            return
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        guard let state = state(task), state.sent(total: totalBytesSent, task: task) else {
            task.cancel()
            return
        }
    }

    func urlSession(
        _ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64,
        totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64
    ) {
        guard let state = state(downloadTask), state.wrote(total: totalBytesWritten, task: downloadTask) else {
            downloadTask.cancel()
            return
        }
    }

    func urlSession(
        _ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL
    ) {
        state(downloadTask)?.finishedDownloading(to: location, task: downloadTask, folder: downloadFolder)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let state = lock.withLock { states.removeValue(forKey: ObjectIdentifier(task)) }
        state?.complete(error: error, response: task.response)
    }
}
