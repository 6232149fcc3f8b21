// The platform's URLSession with none of our code around it: the floor our URLSession engine is measured against.
// bench/download and bench/upload time these beside `get` and `put` on that engine, so a gap between the engine
// and libcurl can be split into what URLSession itself costs here (FoundationNetworking on Linux) and what ours adds.
import FileModel
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Receives one task's events: a data task's bytes go straight to `output` as they come; a download task's file is
/// moved to `destination` when it is complete.
final class BareTaskDelegate: NSObject, URLSessionDataDelegate, URLSessionDownloadDelegate, Sendable {
    /// What the task answered: its status, its headers by lowercased name, its failure.
    struct Outcome {
        var status = 0
        var headers: [String: String] = [:]
        var failure: (any Error)?
    }

    private let output: FileHandle?
    private let destination: String?
    private let done = DispatchSemaphore(value: 0)
    private let outcome = LockedValue(Outcome())

    init(output: FileHandle?, destination: String?) {
        self.output = output
        self.destination = destination
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        record(response)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        output?.write(data)
    }

    func urlSession(
        _ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL
    ) {
        guard let destination else { return }
        do {
            try? FileManager.default.removeItem(atPath: destination)
            try FileManager.default.moveItem(atPath: location.path, toPath: destination)
        } catch {
            outcome.withLock { $0.failure = error }
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let response = task.response { record(response) }
        if let error { outcome.withLock { $0.failure = error } }
        done.signal()
    }

    private func record(_ response: URLResponse) {
        guard let http = response as? HTTPURLResponse else { return }
        var headers: [String: String] = [:]
        for case (let name as String, let value as String) in http.allHeaderFields {
            headers[name.lowercased()] = value
        }
        outcome.withLock { [headers] in
            $0.status = http.statusCode
            $0.headers = headers
        }
    }

    /// Runs `task` to its end; throws on a transport failure or a status outside 2xx.
    func run(_ task: URLSessionTask) throws {
        task.resume()
        done.wait()
        let outcome = outcome.current
        if let failure = outcome.failure { throw failure }
        guard (200..<300).contains(outcome.status) else { throw BareURLSessionError.status(outcome.status) }
    }

    /// A header of the answer, by name in any case.
    func header(_ name: String) -> String? { outcome.current.headers[name.lowercased()] }
}

enum BareURLSessionError: Error {
    case status(Int)
    case noLocation
    case usage
}

/// A session for one task (its delegate keeps that task's answer): default configuration, no cache (our engine keeps
/// none either); its callbacks on one serial queue, as an app's delegate queue.
func bareSession(_ delegate: BareTaskDelegate) -> URLSession {
    let configuration = URLSessionConfiguration.default
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 1
    return URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
}

/// `urlsession-get data|download URL OUT [TOKEN]`: one GET to OUT, by a data task writing each piece as it comes
/// or by a download task (URLSession writes its own file, moved to OUT); prints the seconds as JSON.
func bareURLSessionGet(_ arguments: [String]) throws {
    guard arguments.count >= 3, let url = URL(string: arguments[1]) else { throw BareURLSessionError.usage }
    let started = now()
    var request = URLRequest(url: url)
    if arguments.count > 3 { request.setValue("Bearer " + arguments[3], forHTTPHeaderField: "Authorization") }
    if arguments[0] == "download" {
        let delegate = BareTaskDelegate(output: nil, destination: arguments[2])
        let session = bareSession(delegate)
        try delegate.run(session.downloadTask(with: request))
        session.finishTasksAndInvalidate()
    } else {
        guard FileManager.default.createFile(atPath: arguments[2], contents: nil),
            let output = FileHandle(forWritingAtPath: arguments[2])
        else { throw CocoaError(.fileWriteUnknown) }
        let delegate = BareTaskDelegate(output: output, destination: nil)
        let session = bareSession(delegate)
        try delegate.run(session.dataTask(with: request))
        session.finishTasksAndInvalidate()
        try output.close()
    }
    print(#"{"seconds": \#(now() - started)}"#)
}

/// `urlsession-put TUS_URL FILE TOKEN NAME`: what bench/upload's curl does, on URLSession: a tus creation, then the
/// whole file in one PATCH sent from the file; prints the seconds as JSON.
func bareURLSessionPut(_ arguments: [String]) throws {
    guard arguments.count == 4, let endpoint = URL(string: arguments[0]) else { throw BareURLSessionError.usage }
    let (file, token, name) = (arguments[1], arguments[2], arguments[3])
    let size = try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int ?? 0
    let started = now()
    var create = URLRequest(url: endpoint)
    create.httpMethod = "POST"
    create.setValue("Bearer " + token, forHTTPHeaderField: "Authorization")
    create.setValue("1.0.0", forHTTPHeaderField: "Tus-Resumable")
    create.setValue(String(size), forHTTPHeaderField: "Upload-Length")
    let metadata = ["filename": name, "overwrite": "true"].map {
        "\($0.key) \(Data($0.value.utf8).base64EncodedString())"
    }
    create.setValue(metadata.joined(separator: ","), forHTTPHeaderField: "Upload-Metadata")
    let created = BareTaskDelegate(output: nil, destination: nil)
    let session = bareSession(created)
    try created.run(session.dataTask(with: create))
    session.finishTasksAndInvalidate()
    guard let location = created.header("Location"), let upload = URL(string: location, relativeTo: endpoint) else {
        throw BareURLSessionError.noLocation
    }
    var patch = URLRequest(url: upload.absoluteURL)
    patch.httpMethod = "PATCH"
    patch.setValue("Bearer " + token, forHTTPHeaderField: "Authorization")
    patch.setValue("1.0.0", forHTTPHeaderField: "Tus-Resumable")
    patch.setValue("0", forHTTPHeaderField: "Upload-Offset")
    patch.setValue("application/offset+octet-stream", forHTTPHeaderField: "Content-Type")
    patch.setValue(String(size), forHTTPHeaderField: "Content-Length")
    let sent = BareTaskDelegate(output: nil, destination: nil)
    let patchSession = bareSession(sent)
    try sent.run(patchSession.uploadTask(with: patch, fromFile: URL(fileURLWithPath: file)))
    patchSession.finishTasksAndInvalidate()
    print(#"{"seconds": \#(now() - started)}"#)
}
