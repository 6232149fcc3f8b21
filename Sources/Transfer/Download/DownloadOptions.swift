import HTTP

/// How a download behaves.
public struct DownloadOptions: Sendable {
    /// Replace an existing destination.
    public var force = false
    /// Parallel ranges; nil chooses by size (4 from 64 MiB up, else 1).
    public var segments: Int?
    /// The file must hash to this, or it never reaches its final name.
    package var checksum: Checksum?
    /// The checksum when it is still being asked for (a server hashes the whole file before it answers, so it is
    /// asked while the bytes come): awaited before the file takes its name, when `checksum` is nil; nil from it
    /// means the server has none.
    package var pendingChecksum: (@Sendable () async throws -> Checksum?)?
    /// The validator the server's answer itself carries (an object's stored SHA-256 or single-part MD5 ETag), read
    /// from the headers of the HEAD or the GET that found the file when neither `checksum` nor `pendingChecksum`
    /// gives one.
    package var checksumInHeaders: (@Sendable (HTTPHeaders) -> Checksum?)?
    /// Receive at most this many bytes per second in all.
    public var bandwidthLimit: Int64?
    /// Give the file the server's Last-Modified time, as wget does.
    public var preserveModificationTime = true
    /// The modification time to give the file (seconds since 1970, any precision), over Last-Modified's whole
    /// seconds: an Officer file's listed time, so a later sync compares equal to the millisecond.
    public var modificationTime: Double?
    /// Attempts in a row without progress before giving up (progress resets the count); nil: the library's one
    /// limit for every resumable transfer (6).
    public var maxAttemptsWithoutProgress: Int?
    /// The length the caller already knows (from a listing). A file this small (up to
    /// `smallFileLimit`) with nothing journaled comes in one GET without the HEAD first: for many small
    /// files that halves the requests, and an interrupted one is simply fetched again.
    package var knownLength: Int64?
    /// The version the caller already knows, with the length: its strong ETag, from the HEAD or listing that
    /// found the file (an object store's). With `knownServesRanges` the download asks nothing more before
    /// its GETs: no second HEAD per file.
    package var knownETag: String?
    /// The caller knows the server serves ranges (an object store always does).
    package var knownServesRanges = false
    /// The header fields of a HEAD of the file the caller already made, beside its own first question
    /// (``SegmentedDownloader/headAnswer(from:credential:)``): the download starts from them instead of a HEAD of its
    /// own, a round trip less. A restart asks the server again.
    package var headAnswer: HTTPHeaders?
    /// Asked when the server's file changed during the download, before it starts over: the caller's
    /// ``modificationTime`` and `checksum` belonged to the version first seen, and this gives the new
    /// version's (a file saved with the old version's time would look changed to the next sync).
    public var refreshOnChange: (@Sendable (DownloadOptions) async -> DownloadOptions)?
    /// Files up to this length skip the HEAD when their length is known.
    package static let smallFileLimit: Int64 = 4 << 20

    /// The defaults.
    public init() {}

    /// The checksum the bytes must have: the one given, else the pending one's answer, else the one in the
    /// headers of the answer that found the file.
    func expectedChecksum(headers: HTTPHeaders?) async throws -> Checksum? {
        if let checksum { return checksum }
        if let pendingChecksum { return try await pendingChecksum() }
        return headers.flatMap { checksumInHeaders?($0) }
    }

    /// Whether the bytes will be checked by a SHA-256 (given, asked of the server — its `sha256` — or carried by
    /// `headers`): a download then hashes them as they land instead of after the last byte. A pending checksum
    /// counts as one: an object's HEAD asked beside its ranges may answer an MD5 instead (one not uploaded by us),
    /// and that hash is then spent for nothing.
    func expectsSHA256(headers: HTTPHeaders?) -> Bool {
        if let checksum { return checksum.algorithm == .sha256 }
        if pendingChecksum != nil { return true }
        return headers.flatMap { checksumInHeaders?($0) }?.algorithm == .sha256
    }

    /// Segments used for a file of `total` bytes on a server that serves ranges.
    /// The ranges a file of `total` bytes is fetched in when `wanted` are asked for (nil: by size).
    static func segmentCount(total: Int64, wanted: Int?) -> Int {
        let wanted = wanted ?? (total >= 64 << 20 ? 4 : 1)
        // Ranges under 1 MiB cost more in requests than they gain.
        return max(1, min(wanted, Int(max(1, total / (1 << 20))), 16))
    }
}
