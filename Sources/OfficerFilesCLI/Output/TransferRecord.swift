/// A finished download or upload in JSON (`get`, `put`, `transfers resume`, `transcode`): schema `transfer`.
struct TransferRecord: Encodable, Sendable {
    /// What was copied: a location or URL for a download, a local path (or `-`) for an upload.
    var source: String
    /// Where it is now: a local path for a download, a location or tus URL for an upload.
    var destination: String
    /// Bytes of the whole file.
    var size: Int64
    /// Bytes already in place from an earlier run.
    var resumedBytes: Int64
    /// Bytes this run moved over the network (0 from the cache).
    var movedBytes: Int64
    /// How the bytes went: `ranges`, `stream`, `tus`, `multipart`, `parts`, `cache`, `put`.
    var method: String?
    /// The SHA-256 checked, when one was.
    var sha256: String?
    var seconds: Double
    var fromCache: Bool
    /// A download's check against the remote: `sha256`, `md5`, or `size` where the remote offers no checksum.
    var checked: String? = nil
}

/// An unfinished transfer in JSON (`transfers list`): schema `unfinished`.
struct UnfinishedRecord: Encodable, Sendable {
    /// `upload` or `download`.
    var kind: String
    var source: String
    var destination: String
    /// Bytes in place so far (for an S3 upload, 0: the store says on resume).
    var doneBytes: Int64
    var size: Int64?
}

/// What `transfers clean` did with one unfinished transfer: schema `cleaned`.
struct CleanedRecord: Encodable, Sendable {
    var kind: String
    var source: String
    var destination: String
    /// False when a running transfer holds it (left alone).
    var removed: Bool
}
