import FileModel
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A stand-in for the system's transfer daemon, for the tests of background transfers (`Tests/Server/
/// transfer_daemon.py`): every attempt is a task the daemon runs to its end whatever happens to this process (its
/// body from a snapshot file, a file sink's answer into a file), labelled with the request's transfer; a request
/// with the label of a task the daemon still holds (under way or done, from a process that was killed) adopts that
/// task instead of sending its bytes again. What FoundationNetworking cannot do (a background session), emulated.
package final class TransferDaemonEngine: HTTPEngine, Sendable {
    /// The daemon's control address (`http://127.0.0.1:PORT`).
    package let control: String
    /// Where snapshot bodies and answers are kept while the daemon works on them.
    private let folder: URL
    /// The daemon's ids of the tasks kept until their answers are recorded, by label, with the files their answers
    /// are in (another process adopting the task reads it again).
    private let kept = LockedValue<[String: KeptTask]>([:])

    private struct KeptTask {
        var id: String
        var answer: URL?
    }

    /// An engine whose tasks the daemon at `control` runs.
    package init(control: String, folder: URL = FileManager.default.temporaryDirectory) {
        self.control = control
        self.folder = folder
    }

    /// "transfer daemon (stand-in)".
    package var versionDescription: String { "transfer daemon (stand-in) at \(control)" }

    /// A range into a file is stored only once the daemon's task is whole: ranges go in pieces, as on URLSession.
    package var fileBodyPieceLimit: Int64? { 4 << 20 }

    private struct Submitted: Decodable {
        var id: String
        var adopted: Bool
    }

    private struct Outcome: Decodable {
        var state: String
        var status: Int?
        var headers: [[String]]
        var error: String?
        var into: String?
        var body: String?
    }

    /// Hands the attempt to the daemon, waits for its end, and gives the receiver what it answered.
    package func perform(
        _ request: HTTPRequest, configuration: HTTPClientConfiguration,
        onProgress: (@Sendable (TransferProgress) -> Void)?
    ) async throws -> HTTPResponse {
        let label = "\(request.method) \(URLRedaction.redacted(request.url))"
        try request.checkBeforeSending(label: label)
        guard let url = URL(string: request.url) else { throw HTTPError.unsupportedURL(request.url) }
        let receiver = try ResponseReceiver(request: request, onProgress: onProgress)
        let body = try await SnapshotBody(request: request, folder: folder)
        defer { body.remove() }
        // The fields a URLSession task of the same attempt sends, as the system's daemon would send them.
        let fields =
            URLSessionEngine.urlRequest(for: request, url: url, body: body, configuration: configuration)
            .allHTTPHeaderFields ?? [:]
        let headers = fields.map { [$0.key, $0.value] }
        var bodyPath: String?
        if case .file(let file, _) = body.source { bodyPath = file.path }
        let into = request.sink.isFile ? folder.appendingPathComponent("daemon-\(UUID().uuidString)").path : nil
        let spec: [String: Any?] = [
            "label": request.transferLabel, "method": request.method, "url": request.url, "headers": headers,
            "body": bodyPath, "into": into,
        ]
        let submitted: Submitted = try await ask("POST", "/tasks", json: spec.mapValues { $0 ?? NSNull() })
        let outcome: Outcome = try await ask("GET", "/tasks/\(submitted.id)/result")
        // An adopted task's answer may have gone into the first asker's file.
        let file = outcome.into.map { URL(fileURLWithPath: $0) }
        let keep = request.keepsTaskUntilReleased ? request.transferLabel : nil
        if let keep {
            kept.withLock { $0[keep] = KeptTask(id: submitted.id, answer: file) }
        } else {
            _ = try? await ask("DELETE", "/tasks/\(submitted.id)") as Data
        }
        defer { if keep == nil, let file { try? FileManager.default.removeItem(at: file) } }
        guard outcome.state == "finished", let status = outcome.status else {
            throw HTTPError.transport(
                request: label, code: TransportCode.receiveError, message: outcome.error ?? "the task failed")
        }
        let answered = outcome.headers.filter { $0.count == 2 }.map { (name: $0[0], value: $0[1]) }
        if let refusal = receiver.takeHead(status: status, fields: answered) { throw refusal }
        if let file {
            try URLSessionEngine.hand(file, to: receiver)
        } else if let text = outcome.body, let data = Data(base64Encoded: text), !data.isEmpty {
            let taken = data.withUnsafeBytes { receiver.receive($0) }
            if !taken, let failure = receiver.failure { throw failure }
        }
        return try receiver.response(status: status, effectiveURL: request.url)
    }

    private struct Listed: Decodable {
        var id: String
        var label: String?
        var state: String
    }

    /// Waits for the daemon's tasks under way whose labels start with `prefix` (left by a process that was killed):
    /// an upload's next HEAD then reads the offset they reached instead of cutting them short.
    package func settleTasks(labelled prefix: String) async {
        guard let tasks: [Listed] = try? await ask("GET", "/tasks") else { return }
        for task in tasks where task.state == "running" && (task.label ?? "").hasPrefix(prefix) {
            _ = try? await ask("GET", "/tasks/\(task.id)/result") as Data
        }
    }

    /// The daemon forgets the task: its answer is in the journal.
    package func releaseTask(labelled label: String) async {
        guard let task = kept.withLock({ $0.removeValue(forKey: label) }) else { return }
        _ = try? await ask("DELETE", "/tasks/\(task.id)") as Data
        if let answer = task.answer { try? FileManager.default.removeItem(at: answer) }
    }

    /// One request to the daemon's control API, decoded.
    private func ask<Answer: Decodable>(_ method: String, _ path: String, json: [String: Any]? = nil) async throws
        -> Answer
    {
        let data: Data = try await ask(method, path, json: json)
        return try JSONDecoder().decode(Answer.self, from: data)
    }

    private func ask(_ method: String, _ path: String, json: [String: Any]? = nil) async throws -> Data {
        guard let url = URL(string: control + path) else { throw HTTPError.unsupportedURL(control + path) }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.timeoutInterval = 24 * 3600
        if let json {
            request.httpBody = try JSONSerialization.data(withJSONObject: json)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        // Never cancelled: FoundationNetworking's async `data(for:)` can deadlock when its task is cancelled while the
        // answer is being delivered (the cancel waits for the session's queue, which waits for the task's lock).
        let (data, _) = try await Task.detached { [request] in try await URLSession.shared.data(for: request) }.value
        return data
    }
}
