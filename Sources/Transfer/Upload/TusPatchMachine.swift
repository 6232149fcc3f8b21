import HTTP

/// The rules of one tus part's PATCH loop, as a value: an event in (an answer, a cut, the server's offset, a wait
/// over), the next step out (send this chunk, ask the offset, wait, finish, fail). No I/O, no clock, no lock: the
/// driver (`TusUploader.send`) builds and sends the requests, waits on the injected clock, and feeds back what
/// happened, so every rule is checked in tests by tables of events alone.
///
/// Rules: each chunk is sized by ``ChunkSizer`` (the last bytes of a whole file from memory, at most
/// ``finalChunkLimit``, with the chunk before taking all up to them when it is near that anyway); a confirmed offset
/// outside the chunk is a protocol violation; a 409 waits (unannounced) and asks the server's offset, which wins;
/// a 403 after bytes were sent is "already complete" when the server's offset is the end; a checksum refused (460)
/// is sent again twice; a 404 or 410 starts the upload over; a body limit halves the chunks for good; anything
/// else the retry policy calls worth another try waits its backoff and asks the offset before going on. Failures
/// in a row without progress are counted against `limit`.
struct TusPatchMachine: Sendable {
    /// What the driver does next.
    enum Action: Equatable, Sendable {
        /// PATCH `length` bytes from `offset` (on a fresh connection when `freshConnection`). The checksum of the
        /// chunk after it (``likelyChunk(at:)``) may be computed while this one is on the wire, and the driver may
        /// send a prefix whose checksum is ready, as long as the chunk before or half this one (the answer confirms
        /// less; the next chunk starts there), so a link faster than the hashing does not wait for it.
        case send(offset: Int64, length: Int64, freshConnection: Bool)
        /// HEAD: the server's offset, answered with ``Event/offsetAnswered(_:)``.
        case askOffset
        /// Wait the policy's backoff after failure number `attempt` (the server's `Retry-After` when given), told to
        /// the user when `announced`; then ``Event/waited``.
        case wait(attempt: Int, reason: String, retryAfter: String?, announced: Bool)
        /// The part is sent; `cleanly` when the server's last answer confirmed its end.
        case finish(cleanly: Bool)
        /// The part cannot go on.
        case fail(Failure)
    }

    /// A chunk: where it starts and how long it is.
    struct Chunk: Equatable, Sendable {
        var offset: Int64
        var length: Int64
    }

    /// Why a part failed, for the driver to word with the request it made.
    enum Failure: Equatable, Sendable {
        /// The last answer, as it was (a refusal, a status no rule mends).
        case lastAnswer
        /// The last transport error, as it was.
        case lastTransportError
        /// `attempts` failures in a row without progress; the last said `reason`.
        case gaveUp(attempts: Int, reason: String)
        /// 409 after 409 with the server's offset never moving.
        case conflictsWithoutProgress
        /// The server refused the checksum of the chunk at `offset` three times.
        case checksumRejected(offset: Int64)
        /// The server no longer has the upload (404, 410): start it over.
        case uploadGone(status: Int)
        /// An answer that breaks the protocol.
        case protocolViolation(String)
    }

    /// What happened.
    enum Event: Equatable, Sendable {
        /// The PATCH was answered after `sent` bytes: its status, its `Upload-Offset`, whether the status says the
        /// body was too large, how long it took, and what the policy says of it as a failure.
        case answered(
            status: Int, uploadOffset: Int64?, sent: Int64, bodyTooLarge: Bool, seconds: Double, verdict: RetryVerdict)
        /// The PATCH failed on the way after `sent` bytes; the policy's verdict on the error.
        case transportFailed(sent: Int64, verdict: RetryVerdict)
        /// The server's offset (HEAD).
        case offsetAnswered(Int64)
        /// A wait asked for is over.
        case waited
    }

    /// Something the driver tells or keeps beside the next action.
    enum Notice: Equatable, Sendable {
        /// The server confirmed bytes up to here: journal it, report it.
        case confirmed(Int64)
        /// The server refused the chunk's checksum; it goes again at once (`attempt` is the try that follows).
        case checksumMismatch(attempt: Int)
        /// The server takes at most this per request: remember it for the endpoint, and say the chunks are smaller.
        case bodyLimit(Int64)
    }

    /// The last bytes of a whole file go up from memory, read after the file was checked to be the version whose
    /// earlier bytes went: at most this many, so a large final chunk does not cost its size in memory.
    static let finalChunkLimit: Int64 = 2 << 20

    /// Bytes of the part the server confirmed.
    private(set) var offset: Int64
    /// The part's length.
    let length: Int64
    /// Chunk sizes.
    private(set) var sizer: ChunkSizer
    /// Failures in a row without progress that end the part.
    let limit: Int
    /// Chunks carry a checksum (the server keeps no unverified bytes).
    let checksums: Bool
    /// The part is the whole file: its last bytes go from memory.
    let finalChunkInMemory: Bool

    private var failures = 0
    private var checksumFailures = 0
    private var confirmedEnd = false
    private var freshConnections = false
    private var phase = Phase.idle
    /// The chunk proposed as likely next (its checksum may be ready): taken when near what the sizer wants.
    private var proposedAhead: Chunk?

    private enum Phase: Equatable {
        case idle
        /// A chunk on the wire.
        case sending(Chunk)
        /// Waiting after a failed attempt of `sent` bytes of a chunk of `length`, then asking the offset.
        case waitingAfterFailure(sent: Int64, length: Int64)
        /// Asking the offset after a failed attempt.
        case askingAfterFailure(sent: Int64, length: Int64)
        /// Waiting after a 409, then asking the offset.
        case waitingAfterConflict
        case askingAfterConflict
        /// Asking whether a 403 means the upload is complete.
        case askingAfterRefusal
        case ended
    }

    /// A machine for a part of `length` the server holds `offset` bytes of.
    init(offset: Int64, length: Int64, sizer: ChunkSizer, limit: Int, checksums: Bool, finalChunkInMemory: Bool) {
        self.offset = offset
        self.length = length
        self.sizer = sizer
        self.limit = max(1, limit)
        self.checksums = checksums
        self.finalChunkInMemory = finalChunkInMemory
    }

    /// The first step.
    mutating func start() -> Action { next() }

    /// The step after `event`, with what to tell or keep first.
    mutating func handle(_ event: Event) -> (notices: [Notice], action: Action) {
        switch (phase, event) {
        case (
            .sending(let chunk),
            .answered(let status, let uploadOffset, let sent, let tooLarge, let seconds, let verdict)
        ):
            return answered(
                chunk, Answer(status: status, uploadOffset: uploadOffset, sent: sent), tooLarge, seconds, verdict)
        case (.sending(let chunk), .transportFailed(let sent, let verdict)):
            return ([], retry(verdict, otherwise: .lastTransportError, sent: sent, length: chunk.length))
        case (.waitingAfterFailure(let sent, let length), .waited):
            phase = .askingAfterFailure(sent: sent, length: length)
            return ([], .askOffset)
        case (.askingAfterFailure(let sent, let length), .offsetAnswered(let server)):
            if server > offset {
                failures = 0
            } else if checksums, sent > 0, sent < length + 1 {
                // Cut after `sent` bytes and nothing kept: no later chunk goes above what got through.
                sizer.cut(after: sent)
                freshConnections = true
            } else {
                sizer.failed()
            }
            offset = server
            confirmedEnd = false
            return ([], next())
        case (.waitingAfterConflict, .waited):
            phase = .askingAfterConflict
            return ([], .askOffset)
        case (.askingAfterConflict, .offsetAnswered(let server)):
            if server > offset { failures = 0 }
            offset = server
            return ([], next())
        case (.askingAfterRefusal, .offsetAnswered(let server)):
            guard server == length else { return ([], end(.fail(.lastAnswer))) }
            offset = server
            confirmedEnd = false
            return ([], next())
        default:
            return ([], end(.fail(.protocolViolation("unexpected \(event) while \(phase)"))))
        }
    }

    // MARK: Rules

    /// What an answer said of a chunk.
    private struct Answer {
        var status: Int
        var uploadOffset: Int64?
        var sent: Int64
    }

    private mutating func answered(
        _ chunk: Chunk, _ answer: Answer, _ tooLarge: Bool, _ seconds: Double, _ verdict: RetryVerdict
    ) -> (notices: [Notice], action: Action) {
        let (status, uploadOffset) = (answer.status, answer.uploadOffset)
        switch status {
        case 200, 204:
            guard let confirmed = uploadOffset, confirmed > chunk.offset, confirmed <= chunk.offset + chunk.length
            else {
                let said = uploadOffset.map(String.init) ?? "missing"
                return (
                    [],
                    end(
                        .fail(.protocolViolation("Upload-Offset \(said) after sending \(chunk.offset)+\(chunk.length)"))
                    )
                )
            }
            sizer.succeeded(bytes: confirmed - chunk.offset, seconds: seconds)
            offset = confirmed
            confirmedEnd = offset == length
            failures = 0
            checksumFailures = 0
            return ([.confirmed(confirmed)], next())
        case 409:
            // Our offset and the server's disagree: the server's wins. It may still be taking in an earlier body, so
            // its offset can move under us: wait a little before asking, and count only conflicts where it did not.
            failures += 1
            guard failures < limit else { return ([], end(.fail(.conflictsWithoutProgress))) }
            phase = .waitingAfterConflict
            return (
                [],
                .wait(attempt: failures, reason: "the server's offset differs (409)", retryAfter: nil, announced: false)
            )
        case 403 where chunk.offset > 0:
            // "Upload already complete": an attempt whose answer was lost, or another run, finished it.
            phase = .askingAfterRefusal
            return ([], .askOffset)
        case 460:
            checksumFailures += 1
            guard checksumFailures < 3 else { return ([], end(.fail(.checksumRejected(offset: chunk.offset)))) }
            return ([.checksumMismatch(attempt: checksumFailures + 1)], next())
        case 404, 410:
            return ([], end(.fail(.uploadGone(status: status))))
        case _ where tooLarge:
            guard sizer.tooLarge() else { return ([], end(.fail(.lastAnswer))) }
            return ([.bodyLimit(sizer.ceiling)], next())
        case 423:
            // The server is still taking in an earlier request for this upload (a killed run's body).
            let locked = RetryVerdict.again(reason: "the upload is locked by an earlier request (423)", retryAfter: nil)
            return ([], retry(locked, otherwise: .lastAnswer, sent: answer.sent, length: chunk.length))
        default:
            return ([], retry(verdict, otherwise: .lastAnswer, sent: answer.sent, length: chunk.length))
        }
    }

    /// A failed attempt: waited for and asked about when the policy calls it worth another, else final.
    private mutating func retry(_ verdict: RetryVerdict, otherwise: Failure, sent: Int64, length: Int64) -> Action {
        guard case .again(let reason, let retryAfter) = verdict else { return end(.fail(otherwise)) }
        failures += 1
        guard failures < limit else { return end(.fail(.gaveUp(attempts: failures, reason: reason))) }
        phase = .waitingAfterFailure(sent: sent, length: length)
        return .wait(attempt: failures, reason: reason, retryAfter: retryAfter, announced: true)
    }

    /// The next chunk from ``offset``, or the end.
    private mutating func next() -> Action {
        guard offset < length else { return end(.finish(cleanly: confirmedEnd)) }
        var chunk = Chunk(offset: offset, length: chunkLength(at: offset, wanted: sizer.size))
        if let ahead = proposedAhead, ahead.offset == offset, ahead.length != chunk.length, sizer.adaptive,
            ahead.length <= sizer.ceiling, (sizer.size / 2...sizer.size * 2).contains(ahead.length),
            chunkLength(at: offset, wanted: ahead.length) == ahead.length
        {
            // The checksum computed ahead is of a length near the sizer's: that chunk goes, instead of the link
            // waiting while the file is read again for another length.
            chunk.length = ahead.length
        }
        phase = .sending(chunk)
        proposedAhead = likelyChunk(at: chunk.offset + chunk.length)
        return .send(offset: chunk.offset, length: chunk.length, freshConnection: freshConnections)
    }

    /// The chunk most likely to go from `start` once the bytes before it are confirmed, for its checksum to be
    /// computed ahead: the size the sizer will likely want, within the rules for the part's tail. Nothing follows
    /// the chunk that reaches the part's end, and a whole file's tail is hashed as it is read into memory; nothing
    /// is computed ahead for chunks that carry no checksum.
    func likelyChunk(at start: Int64) -> Chunk? {
        guard checksums, start < length, !finalChunkInMemory || length - start > Self.finalChunkLimit else {
            return nil
        }
        return Chunk(offset: start, length: chunkLength(at: start, wanted: sizer.predictedNext))
    }

    /// How long the chunk at `start` is when the sizer wants `wanted` bytes. The last bytes of a whole file go from
    /// memory (at most ``finalChunkLimit``); the chunk before them takes everything up to them when it is near that
    /// anyway, so the tail costs one request, not a sliver's request more.
    func chunkLength(at start: Int64, wanted: Int64) -> Int64 {
        let remaining = length - start
        guard finalChunkInMemory, remaining > Self.finalChunkLimit else { return min(wanted, remaining) }
        let beforeTail = remaining - Self.finalChunkLimit
        guard sizer.adaptive, beforeTail <= sizer.ceiling else { return min(wanted, beforeTail) }
        return wanted + wanted / 4 >= beforeTail ? beforeTail : wanted
    }

    private mutating func end(_ action: Action) -> Action {
        phase = .ended
        return action
    }
}
