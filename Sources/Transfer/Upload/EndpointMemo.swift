import Foundation
import HTTP

/// What an uploader learnt of each endpoint (its OPTIONS answer, its body limit), shared by the copies of one
/// uploader and by the tasks of one run.
package final class EndpointMemo<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [String: Value] = [:]

    package init() {}

    package subscript(endpoint: String) -> Value? {
        get { lock.withLock { values[endpoint] } }
        set { lock.withLock { values[endpoint] = newValue } }
    }
}

/// What every upload of one front door learns of its endpoints: whether each speaks tus (its OPTIONS answer, or
/// none), the largest body it takes, and whether the user was told it cannot resume. Shared, so a batch or a sync
/// asks each endpoint once, not once per file and per worker.
package final class UploadEndpoints: Sendable {
    let discovered = EndpointMemo<TusServerInfo?>()
    let bodyLimits = EndpointMemo<Int64>()
    let toldNotResumable = EndpointMemo<Bool>()

    package init() {}
}
