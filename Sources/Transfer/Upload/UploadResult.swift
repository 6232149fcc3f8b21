import HTTP

/// How a file went up.
///
/// Cases may be added in a later version: a `switch` over it keeps a `default`.
public enum UploadMethod: String, Sendable, Codable {
    /// tus 1.0, resumable.
    case tus
    /// The IETF resumable-upload form (draft-ietf-httpbis-resumable-upload), resumable.
    case resumable
    /// One multipart POST, not resumable.
    case multipart
    /// One PUT to an object store.
    case objectPut = "put"
    /// An object store's multipart upload, resumable part by part.
    case objectParts = "parts"
}

/// The outcome of a finished upload.
public struct UploadResult: Sendable, Equatable {
    /// The local file.
    public var path: String
    /// Its size.
    public var bytes: Int64
    /// tus or multipart.
    public var method: UploadMethod
    /// Bytes the server already had from an earlier run.
    public var resumedBytes: Int64
    /// Bytes sent in this run (more than `bytes - resumedBytes` when chunks were re-sent).
    public var sentBytes: Int64
    /// The tus upload URL, when tus was used.
    package var uploadURL: String?
    /// The SHA-256 of what was sent, in hex, when the uploader computed it on the way (a stream has no file to
    /// hash afterwards).
    public var sha256: String? = nil
    /// The modification time the server gave the stored file, when its answer said (a server that keeps its own
    /// time rather than the one sent: a sync remembers the pair).
    public var storedModificationTime: Double? = nil
}

extension UploadResult {
    /// A finished upload sent whole in this run (a remote made outside this module: a test's in-memory one).
    package init(path: String, bytes: Int64, method: UploadMethod) {
        self.init(path: path, bytes: bytes, method: method, resumedBytes: 0, sentBytes: bytes, uploadURL: nil)
    }
}
