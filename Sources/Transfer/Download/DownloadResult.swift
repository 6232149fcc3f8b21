import HTTP

/// The outcome of a finished download.
public struct DownloadResult: Sendable, Equatable {
    /// The final file.
    public var path: String
    /// Its length.
    public var bytes: Int64
    /// Bytes that were already on disk from an earlier run.
    public var resumedBytes: Int64
    /// Bytes received in this run; beyond `bytes - resumedBytes` they were fetched twice.
    public var fetchedBytes: Int64
    /// SHA-256 when it was checked.
    public var sha256: String?
    /// The server's strong ETag for the version fetched, if it gave one.
    public var etag: String? = nil
    /// True when the bytes came from a local copy (the cache) the server confirmed current, not over the network.
    public var fromCache = false
    /// What the bytes were checked against before they took their name: a digest of the remote's (SHA-256, an
    /// object's MD5) or their length alone, where the remote offers no checksum.
    public var checkedBy: ContentCheck = .size
    /// The headers of the one response that carried the whole file (nil when it came in ranges or from the
    /// cache): what a caller reads of that version without asking again (an object's stored time).
    package var responseHeaders: HTTPHeaders? = nil
}

extension DownloadResult {
    /// A finished download fetched whole in this run (a remote made outside this module: a test's in-memory one).
    package init(path: String, bytes: Int64) {
        self.init(path: path, bytes: bytes, resumedBytes: 0, fetchedBytes: bytes, sha256: nil)
    }
}
