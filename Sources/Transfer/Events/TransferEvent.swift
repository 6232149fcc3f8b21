/// What a long transfer reports while it runs, downloads and uploads alike: one family, so an app draws every
/// transfer with one view and a CLI with one progress line.
public enum TransferEvent: Sendable, Equatable {
    /// The plan: the total (when known), the size of each part (ranges of a download, parts of an upload), the
    /// bytes already in place from an earlier run, and how the bytes go.
    case started(total: Int64?, partSizes: [Int64], resumedBytes: Int64, method: TransferMethod)
    /// One part moved: bytes of it done (or in flight), counted from the part's start.
    case progress(part: Int, done: Int64)
    /// One part failed and is tried again after `delay` seconds.
    case retrying(part: Int, attempt: Int, delay: Double, reason: String)
    /// The transfer starts over from nothing: the remote file changed, or the server no longer has the upload.
    case restarted(reason: String)
}

/// How the bytes of a transfer go.
public enum TransferMethod: String, Sendable, Codable {
    /// HTTP ranges, resumable.
    case ranges
    /// One HTTP stream; resumable only when the server offers ranges.
    case stream
    /// tus 1.0, resumable.
    case tus
    /// One multipart POST, not resumable.
    case multipart
    /// A local copy the server confirmed current (the cache); nothing moved over the network.
    case cache
}

extension TransferEvent {
    /// A download's event in the shared family.
    public init(_ event: DownloadEvent) {
        switch event {
        case .started(let total, let segments, let resumed):
            self = .started(
                total: total, partSizes: segments.map { $0.upperBound - $0.lowerBound + 1 }, resumedBytes: resumed,
                method: segments.isEmpty ? .stream : .ranges)
        case .progress(let segment, let done): self = .progress(part: segment, done: done)
        case .retrying(let segment, let attempt, let delay, let reason):
            self = .retrying(part: segment, attempt: attempt, delay: delay, reason: reason)
        case .restarted(let reason): self = .restarted(reason: reason)
        }
    }

    /// An upload's event in the shared family.
    public init(_ event: UploadEvent) {
        switch event {
        case .started(let method, let size, let parts, let resumed):
            self = .started(
                total: size,
                partSizes: (0..<parts).map { size * Int64($0 + 1) / Int64(parts) - size * Int64($0) / Int64(parts) },
                resumedBytes: resumed, method: method == .tus ? .tus : .multipart)
        case .progress(let part, let sent): self = .progress(part: part, done: sent)
        case .retrying(let part, let attempt, let delay, let reason):
            self = .retrying(part: part, attempt: attempt, delay: delay, reason: reason)
        case .restarted(let reason): self = .restarted(reason: reason)
        }
    }
}
