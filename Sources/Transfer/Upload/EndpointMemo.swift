import FileModel
import Foundation
import HTTP

/// What an uploader learnt of each endpoint (its OPTIONS answer, its body limit), shared by the copies of one
/// uploader and by the tasks of one run.
package final class EndpointMemo<Value: Sendable>: Sendable {
    private struct Known {
        var values: [String: Value] = [:]
        /// The one question under way per endpoint; its callers await it.
        var asking: [String: Task<Value, any Error>] = [:]
    }
    private let known = LockedValue(Known())

    private enum Found {
        case known(Value)
        case asking(Task<Value, any Error>)
    }

    package init() {}

    /// The value for `endpoint`, asked once: a caller that comes while it is being asked waits for that answer
    /// instead of asking again (a sync's first uploads start together); a failure is not kept, the next caller asks.
    package func value(for endpoint: String, ask: @escaping @Sendable () async throws -> Value) async throws -> Value {
        // Known already (every upload after the first): answered without a task.
        let found = known.withLock { known -> Found in
            if let value = known.values[endpoint] { return .known(value) }
            if let pending = known.asking[endpoint] { return .asking(pending) }
            let pending = Task { try await ask() }
            known.asking[endpoint] = pending
            return .asking(pending)
        }
        let task: Task<Value, any Error>
        switch found {
        case .known(let value): return value
        case .asking(let pending): task = pending
        }
        do {
            let value = try await task.value
            known.withLock {
                $0.values[endpoint] = value
                $0.asking[endpoint] = nil
            }
            return value
        } catch {
            known.withLock { if $0.asking[endpoint] == task { $0.asking[endpoint] = nil } }
            throw error
        }
    }

    package subscript(endpoint: String) -> Value? {
        get { known.withLock { $0.values[endpoint] } }
        set { known.withLock { $0.values[endpoint] = newValue } }
    }
}

/// What every upload of one front door learns of its endpoints: whether each speaks tus (its OPTIONS answer, or
/// none), the largest body it takes, how fast its last body went, and whether the user was told it cannot resume.
/// Shared, so a batch or a sync asks each endpoint once, not once per file and per worker.
package final class UploadEndpoints: Sendable {
    let discovered = EndpointMemo<TusServerInfo?>()
    let bodyLimits = EndpointMemo<Int64>()
    /// The last request with a body each endpoint confirmed (a part's last chunk left out), and each new upload's
    /// creation that carried its first chunk (under the upload's URL, until its PATCH loop takes it): the next
    /// chunks grow from it.
    let lastBodies = EndpointMemo<BodyTiming>()
    /// Endpoints the user was told cannot resume (this run, or an earlier one the caller remembers).
    package let toldNotResumable = EndpointMemo<Bool>()

    package init() {}
}
