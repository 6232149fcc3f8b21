import HTTP

/// How an upload behaves.
public struct UploadOptions: Sendable {
    /// Bytes per PATCH request, fixed; nil (the default) sizes each request from the measured rate so it takes
    /// about three seconds (from 1 MiB, between 256 KiB and 512 MiB): an interruption loses seconds, not chunks.
    public var chunkSize: Int64?
    /// Parallel partial uploads joined by concatenation, when the server offers it (`--parts N`).
    public var parts = 1
    /// Send at most this many bytes per second in all.
    public var bandwidthLimit: Int64?
    /// Delete the server's partial upload when the upload is cancelled; by default a cancelled upload is paused
    /// (the server keeps what it has, the journal the upload) and the same call continues it.
    public var terminateOnCancel = false
    /// Send a checksum with every chunk when the server offers the extension (the server then verifies it).
    public var checksums = true
    /// Extra `Upload-Metadata` items (`--meta KEY=VALUE`); they win over the target's own and the detected `filetype`.
    package var metadata: [UploadTarget.MetadataItem] = []
    /// Which resumable form to use when the server offers both tus and the IETF form (an app whose system carries
    /// its uploads in a background session asks for ``ResumableUploadForm/ietf``); either way the other is taken when
    /// it is the only one offered.
    public var resumableForm = ResumableUploadForm.automatic
    /// The IETF form's interop version to ask for (6; 5 and 3 for the servers of older systems).
    package var ietfInteropVersion = 6
    /// Attempts in a row without progress before giving up (progress resets the count); nil: the library's one
    /// limit for every resumable transfer (6).
    public var maxAttemptsWithoutProgress: Int?

    /// The defaults: chunks sized from the rate, one part, checksums, pause on cancel.
    public init() {}
}
