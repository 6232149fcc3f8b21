import Foundation
import HTTP

/// What an uploader learnt of each endpoint (its OPTIONS answer, its body limit), shared by the copies of one
/// uploader and by the tasks of one run.
final class EndpointMemo<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [String: Value] = [:]

    subscript(endpoint: String) -> Value? {
        get { lock.withLock { values[endpoint] } }
        set { lock.withLock { values[endpoint] = newValue } }
    }
}
