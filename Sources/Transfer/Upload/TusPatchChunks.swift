import FileModel
import Foundation
import HTTP
import Journal

/// The PATCH requests of one tus part, as ``TusPatchMachine`` asks for them: a chunk from the file (its checksum
/// computed ahead while the chunk before is on the wire), or the whole file's last bytes from memory, read once and
/// sent only while the file is still the version they were read from.
struct TusPatchChunks {
    /// The part.
    let part: TransferJournal.UploadPart
    /// The file it is read from.
    let path: String
    /// The file's version when the upload began, when the part is the whole file (its last bytes go from memory).
    let identity: FileIdentity?
    /// The checksum algorithm the server verifies (`sha256`, `sha1`); nil sends none.
    let algorithm: String?
    /// How the requests are worded (tus, or the IETF form).
    let dialect: UploadDialect
    /// Bytes per second for this part's requests.
    let rate: Int64?

    /// The final chunk, read once into memory and sent again as it was after a failure.
    private var finalChunk: (offset: Int64, data: Data)?
    /// The next chunk's checksum, computed while the current chunk is on the wire.
    private var nextChecksum: (chunk: TusPatchMachine.Chunk, task: Task<String, any Error>)?

    /// The chunks of `part` of `path`.
    init(
        part: TransferJournal.UploadPart, path: String, identity: FileIdentity?, algorithm: String?,
        dialect: UploadDialect = .tus, rate: Int64?
    ) {
        self.dialect = dialect
        self.part = part
        self.path = path
        self.identity = identity
        self.algorithm = algorithm
        self.rate = rate
    }

    /// The PATCH of `length` bytes from `offset`; `ahead`'s checksum starts computing.
    mutating func request(offset: Int64, length: Int64, token: BearerCredential?, ahead: TusPatchMachine.Chunk?)
        async throws -> HTTPRequest
    {
        var request = HTTPRequest(method: "PATCH", url: part.url!, credential: token, isIdempotent: false)
        if let identity, length == part.length - offset {
            if finalChunk?.offset != offset {
                finalChunk = (offset, try TusUploader.read(path, at: part.start + offset, length: length))
            }
            // Checked after the read: bytes read before a change would show it; none read after the check are sent.
            try identity.check(path)
            request.body = .data(finalChunk!.data, contentType: dialect.appendContentType)
            if let algorithm {
                let field = dialect.checksumField(TusUploader.checksumHeader(algorithm, data: finalChunk!.data))
                request.headers.add(field.name, field.value)
            }
        } else {
            request.body = .file(
                path: path, offset: part.start + offset, length: length,
                contentType: dialect.appendContentType)
            if let algorithm {
                let chunk = TusPatchMachine.Chunk(offset: offset, length: length)
                let computed = nextChecksum?.chunk == chunk ? nextChecksum?.task : nil
                if computed == nil { nextChecksum?.task.cancel() }
                let current = computed ?? checksum(of: chunk, algorithm)
                let field = dialect.checksumField(try await current.value)
                request.headers.add(field.name, field.value)
                nextChecksum = ahead.map { ($0, checksum(of: $0, algorithm)) }
            }
        }
        dialect.mark(&request)
        request.transferLabel = "upload \(path) #\(part.index) \(offset)+\(length)"
        request.headers.add("Upload-Offset", String(offset))
        // The IETF form says which request completes the upload; tus knows it from the length.
        dialect.markCompletion(&request, complete: offset + length == part.length)
        request.maxSendBytesPerSecond = rate
        return request
    }

    /// Stops a checksum computed ahead that no request will take.
    func cancelAhead() { nextChecksum?.task.cancel() }

    /// The `Upload-Checksum` of `chunk`, computed off the caller's task (owned by this value: taken by the request
    /// that needs it, or cancelled).
    private func checksum(of chunk: TusPatchMachine.Chunk, _ algorithm: String) -> Task<String, any Error> {
        let (path, start) = (path, part.start + chunk.offset)
        // Detached tasks inherit no task-locals: the front door's digests go along (PluginScope).
        let plugins = PluginScope.overrides
        return Task.detached {
            try PluginScope.$overrides.withValue(plugins) {
                try TusUploader.checksumHeader(algorithm, path: path, offset: start, length: chunk.length)
            }
        }
    }
}
