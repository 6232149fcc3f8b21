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
    private var nextChecksum: AheadChecksum?
    /// The length of the last chunk sent from the file.
    private var lastLength: Int64 = 0

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

    /// The PATCH of `length` bytes from `offset`, or of a prefix whose checksum was computed ahead, at least as
    /// long as the chunk before or half of this one (on a link faster than the hashing, it goes at once rather than
    /// waiting for the rest to be hashed; the machine takes a shorter chunk as it takes a server keeping less,
    /// and the sizes still grow, by what is hashed while a chunk is on the wire), with the length it sends;
    /// the checksum of the chunk `likely` says follows it starts computing.
    mutating func request(
        offset: Int64, length: Int64, token: BearerCredential?,
        likely: (_ start: Int64) -> TusPatchMachine.Chunk?
    ) async throws -> (request: HTTPRequest, length: Int64) {
        var request = HTTPRequest(method: "PATCH", url: part.url!, credential: token, isIdempotent: false)
        var length = length
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
            if let algorithm {
                let checksum = try await checksum(offset: offset, length: length, algorithm)
                let field = dialect.checksumField(checksum.header)
                request.headers.add(field.name, field.value)
                length = checksum.length
                lastLength = length
                if let next = likely(offset + length) {
                    nextChecksum = AheadChecksum(
                        path: path, fileOffset: part.start + next.offset, start: next.offset, length: next.length,
                        algorithm: algorithm, plugins: PluginScope.overrides)
                }
            }
            request.body = .file(
                path: path, offset: part.start + offset, length: length, contentType: dialect.appendContentType)
        }
        dialect.mark(&request)
        request.transferLabel = "upload \(path) #\(part.index) \(offset)+\(length)"
        request.headers.add("Upload-Offset", String(offset))
        // The IETF form says which request completes the upload; tus knows it from the length.
        dialect.markCompletion(&request, complete: offset + length == part.length)
        request.maxSendBytesPerSecond = rate
        return (request, length)
    }

    /// Stops a checksum computed ahead that no request will take.
    func cancelAhead() { nextChecksum?.cancel() }

    /// The checksum of the chunk at `offset`: the one computed ahead from there (all of `length`, or a prefix as
    /// long as the chunk before or half of this one), else computed now, off the caller's task.
    private mutating func checksum(offset: Int64, length: Int64, _ algorithm: String) async throws
        -> AheadChecksum.Taken
    {
        let running = nextChecksum
        nextChecksum = nil
        // One planned for less than half of what is asked now (the sizer grew more than foreseen) is not taken:
        // the chunks would lag behind the sizes the link can carry.
        if let running, running.start == offset, running.length >= (length + 1) / 2,
            let taken = await running.take(minimum: min((length + 1) / 2, lastLength), maximum: length)
        {
            return taken
        }
        running?.cancel()
        let (path, start) = (path, part.start + offset)
        // Detached tasks inherit no task-locals: the front door's digests go along (PluginScope).
        let plugins = PluginScope.overrides
        let header = try await Task.detached {
            try PluginScope.$overrides.withValue(plugins) {
                try TusUploader.checksumHeader(algorithm, path: path, offset: start, length: length)
            }
        }.value
        return AheadChecksum.Taken(length: length, header: header)
    }
}
