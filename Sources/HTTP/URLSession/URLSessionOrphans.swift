import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The labelled tasks of the session that no request of this launch waits for: a background session's, started by
/// an earlier launch of the app and carried on by the system while the app was away (or by this process before its
/// waits were ended, ``URLSessionEngine/simulateTermination()``). Each one's end is awaited by whoever asks
/// (``URLSessionEngine/settleTasks(labelled:)``), and a download task's answer — its status, its fields, its body in
/// a file — is kept until a request with the same label and the same fields claims it instead of asking again.
///
/// A plain value: the session's delegate keeps it under its lock, beside the tasks it tracks, so that a task is
/// either tracked or an orphan, never both, and no end is missed between looking and waiting.
struct URLSessionOrphans {
    /// A finished download task's answer, handed to the request that claims it.
    struct Answer {
        var response: HTTPURLResponse
        /// The body, in the engine's folder: the claimer hands it to its receiver and removes it.
        var file: URL
    }

    private struct Record {
        let task: URLSessionTask
        var file: URL?
        var ended = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// Held by task: the record keeps its task, so an identifier is never reused while it is here.
    private var records: [ObjectIdentifier: Record] = [:]

    /// Whether the task is one: labelled (an untracked task without a label is not this library's to keep).
    static func isOrphan(_ task: URLSessionTask) -> Bool { !(task.taskDescription ?? "").isEmpty }

    /// A download orphan's body was written to `file` (moved out of the session's own, which is gone after the call).
    mutating func downloaded(_ task: URLSessionTask, into file: URL) {
        records[ObjectIdentifier(task), default: Record(task: task)].file = file
    }

    /// The orphan ended: its waiters are handed back to be resumed. A failed task, or one with no body kept, leaves
    /// nothing to claim; a download's answer stays for its claimer.
    mutating func end(_ task: URLSessionTask, failed: Bool) -> (waiters: [CheckedContinuation<Void, Never>], drop: URL?)
    {
        let key = ObjectIdentifier(task)
        var record = records[key] ?? Record(task: task)
        let waiters = record.waiters
        record.waiters = []
        record.ended = true
        let answered = !failed && record.file != nil && task.response is HTTPURLResponse
        records[key] = answered ? record : nil
        return (waiters, answered ? nil : record.file)
    }

    /// Registers `waiter` to be resumed at the task's end; false when it already ended (resume it now).
    mutating func wait(for task: URLSessionTask, _ waiter: CheckedContinuation<Void, Never>) -> Bool {
        let key = ObjectIdentifier(task)
        var record = records[key] ?? Record(task: task)
        guard !record.ended else { return false }
        record.waiters.append(waiter)
        records[key] = record
        return true
    }

    /// The answer of an ended download orphan labelled `label` that asked what `request` asks (its method, URL and
    /// fields but the token, which may have been renewed since), taken: nobody else claims it.
    mutating func claim(_ label: String, asking request: URLRequest) -> Answer? {
        guard
            let (key, record) = records.first(where: { _, record in
                record.ended && record.task.taskDescription == label
                    && Self.asksTheSame(record.task.originalRequest, request)
            }), let file = record.file, let response = record.task.response as? HTTPURLResponse
        else { return nil }
        records[key] = nil
        return Answer(response: response, file: file)
    }

    /// Forgets an unclaimed answer labelled `label`, handing back its file to remove.
    mutating func forget(_ label: String) -> [URL] {
        let forgotten = records.filter { $0.value.ended && $0.value.task.taskDescription == label }
        for key in forgotten.keys { records[key] = nil }
        return forgotten.values.compactMap(\.file)
    }

    /// Two requests ask the same when their method, URL and fields are the same, the token aside.
    static func asksTheSame(_ first: URLRequest?, _ second: URLRequest) -> Bool {
        guard let first else { return false }
        func fields(_ request: URLRequest) -> [String: String] {
            (request.allHTTPHeaderFields ?? [:]).filter { $0.key.lowercased() != "authorization" }
        }
        return first.httpMethod == second.httpMethod && first.url == second.url && fields(first) == fields(second)
    }
}
