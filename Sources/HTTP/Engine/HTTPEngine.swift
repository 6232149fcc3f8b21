/// What moves one attempt of one request over the network: the libcurl engine on Linux, the URLSession engine
/// anywhere Foundation runs (the one an iOS app uses). ``HTTPClient`` does everything above a single attempt once,
/// for every engine: the offline rule, the token's origin rule, redirects hop by hop, retries, renewal, logging.
///
/// An engine follows no redirect, retries nothing and reports each attempt's outcome as an ``HTTPResponse`` or an
/// ``HTTPError``; the request's sink, length limits, response check and the configuration's low-speed limit are
/// its to keep, through the shared ``ResponseReceiver`` and ``LowSpeedWatch``.
package protocol HTTPEngine: Sendable {
    /// The engine and the library under it, for `--version` and `-v` (`libcurl/8.5.0 OpenSSL/3.0.13`).
    var versionDescription: String { get }

    /// Sends `request` once; `onProgress` is called from the engine's own thread or queue. Cancelling the calling
    /// task stops the transfer with `CancellationError`.
    func perform(
        _ request: HTTPRequest, configuration: HTTPClientConfiguration,
        onProgress: (@Sendable (TransferProgress) -> Void)?
    ) async throws -> HTTPResponse

    /// The most a ranged request into a file should ask for: an engine that stores such a body only once it is whole
    /// (a download task) loses what an interruption cut of at most this; nil stores the bytes as they come.
    var fileBodyPieceLimit: Int64? { get }

    /// The most one request body of a resumable upload (a tus chunk) should carry: an engine that sends larger bodies
    /// only in a way that is unsafe to cancel keeps each chunk within what it sends safely; nil: no limit.
    var uploadBodyPieceLimit: Int64? { get }

    /// Waits for the tasks an earlier process left under way whose labels start with `prefix`.
    func settleTasks(labelled prefix: String) async

    /// Forgets the task labelled `label` that a request with ``HTTPRequest/keepsTaskUntilReleased`` left adoptable,
    /// once its answer is recorded.
    func releaseTask(labelled label: String) async
}

extension HTTPEngine {
    /// Bytes are stored as they come: a range is asked whole.
    package var fileBodyPieceLimit: Int64? { nil }

    /// Any body is sent safely: chunks are sized by the link alone.
    package var uploadBodyPieceLimit: Int64? { nil }

    /// Waits for the tasks an earlier process left under way whose labels start with `prefix` (a background session's,
    /// carried on while the app was away), so that what follows asks the server after them, not beside them; an
    /// engine whose tasks end with their process has none.
    package func settleTasks(labelled prefix: String) async {}

    /// An engine whose tasks end with their process keeps none.
    package func releaseTask(labelled label: String) async {}
}
