/// What a long transfer reports while it runs, downloads and uploads alike: one family, so an app draws every
/// transfer with one view and a CLI with one progress line.
///
/// Cases may be added in a later version: a `switch` over it keeps a `default`.
public enum TransferEvent: Sendable, Equatable {
    /// The plan: the total (when known), the size of each part (ranges of a download, parts of an upload), the
    /// bytes already in place from an earlier run, how the bytes go, and each part's share of the resumed bytes
    /// (empty when there is one part, or the shares are told by each part's first ``progress(part:done:)``).
    case started(
        total: Int64?, partSizes: [Int64], resumedBytes: Int64, method: TransferMethod, partsResumed: [Int64] = [])
    /// One part moved: bytes of it done (or in flight), counted from the part's start.
    case progress(part: Int, done: Int64)
    /// One part failed and is tried again after `delay` seconds.
    case retrying(part: Int, attempt: Int, delay: Double, reason: String)
    /// The transfer starts over from nothing: the remote file changed, or the server no longer has the upload.
    case restarted(reason: String)
    /// The upload stopped on purpose (its task cancelled) and the remote keeps the `confirmed` bytes: the same
    /// call continues from there. The operation then ends with its pause error.
    case paused(confirmed: Int64, total: Int64?)
    /// Something the user should know that did not stop the transfer (its journal could not be updated).
    case warning(String)
    /// Every byte is in; they are being checked against the strongest validator the remote offers (hashed, the
    /// version asked again) before they take their name: a large file's last seconds, not a stall at 100%.
    case verifying
}

/// How the bytes of a transfer go.
///
/// Cases may be added in a later version: a `switch` over it keeps a `default`.
public enum TransferMethod: String, Sendable, Codable {
    /// HTTP ranges, resumable.
    case ranges
    /// One HTTP stream; resumable only when the server offers ranges.
    case stream
    /// tus 1.0, resumable.
    case tus
    /// The IETF resumable-upload form (draft-ietf-httpbis-resumable-upload), resumable.
    case resumable
    /// One multipart POST, not resumable.
    case multipart
    /// An object store's multipart upload: parts sent in parallel, resumable part by part.
    case objectParts = "parts"
    /// A local copy the server confirmed current (the cache); nothing moved over the network.
    case cache
}

extension TransferEvent: CoalescibleEvent {
    /// A part's progress is replaced by the next of the same part; everything else is always delivered.
    package var coalescingKey: Int? {
        if case .progress(let part, _) = self { part } else { nil }
    }
}
