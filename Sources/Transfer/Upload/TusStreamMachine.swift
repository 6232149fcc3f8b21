import HTTP

/// The rules of sending one chunk of a stream (a pipe, `put -`) held in memory, as a value: an event in (an answer,
/// a cut, the server's offset, a wait over), the next step out (send this piece, ask the offset, wait, finish,
/// fail). No I/O, no clock, no lock: `TusUploader.sendChunk` drives it, and `TusStreamMachineTests` checks every rule
/// by tables of events alone.
///
/// Rules: the chunk goes in pieces of at most `pieceLimit` bytes, the one that reaches the stream's end carrying
/// its length once known; a confirmed offset other than the piece's end is a protocol violation; a checksum refused
/// (460) is sent again twice; a 403 once the length was sent is "already complete" when the server's offset is the
/// end; a body limit halves the pieces down to ``ChunkSizer/floor``; anything the retry policy calls worth another
/// try waits its backoff and asks what of the chunk the server kept (never outside the chunk): when it kept
/// nothing, the pieces shrink below half of what got through, each on a fresh connection. Failures in a row
/// without progress are counted against `limit`.
struct TusStreamMachine: Sendable {
    /// What the driver does next.
    enum Action: Equatable, Sendable {
        /// PATCH the chunk's bytes from `start` to `end` (stream offsets), with `Upload-Length` when `withLength`.
        case send(start: Int64, end: Int64, withLength: Bool, freshConnection: Bool)
        /// HEAD: the server's offset, answered with ``Event/offsetAnswered(_:)``.
        case askOffset
        /// Wait the policy's backoff after failure number `attempt` (the server's `Retry-After` when given), told to
        /// the user; then ``Event/waited``.
        case wait(attempt: Int, reason: String, retryAfter: String?)
        /// The chunk is on the server; `cleanly` when a PATCH's answer confirmed its end.
        case finish(cleanly: Bool)
        /// The chunk cannot go on.
        case fail(Failure)
    }

    /// Why a chunk failed, for the driver to word with the request it made.
    enum Failure: Equatable, Sendable {
        /// The last answer, as it was.
        case lastAnswer
        /// The last transport error, as it was.
        case lastTransportError
        /// `attempts` failures in a row without progress; the last said `reason`.
        case gaveUp(attempts: Int, reason: String)
        /// The server refused the checksum of the piece at stream offset `offset` three times.
        case checksumRejected(offset: Int64)
        /// A PATCH's answer that breaks the protocol.
        case protocolViolation(String)
        /// The server's offset (HEAD) outside the chunk.
        case offsetOutsideChunk(Int64)
    }

    /// What happened (as ``TusPatchMachine/Event``).
    typealias Event = TusPatchMachine.Event

    /// The chunk's first byte in the stream.
    let start: Int64
    /// Just past its last byte.
    let end: Int64
    /// The stream's length, once known (then the piece that reaches it says so).
    let total: Int64?
    /// Failures in a row without progress that end the chunk.
    let limit: Int
    /// Bytes of the stream the server confirmed.
    private(set) var offset: Int64
    /// The largest piece.
    private(set) var pieceLimit: Int64

    private var failures = 0
    private var checksumFailures = 0
    private var freshConnections = false
    private var phase = Phase.idle

    private enum Phase: Equatable {
        case idle
        case sending(end: Int64)
        case waitingAfterFailure(sent: Int64)
        case askingAfterFailure(sent: Int64)
        case askingAfterRefusal
        case ended
    }

    /// A machine for the chunk of `length` bytes at `start` of a stream of `total` bytes (nil: not known yet).
    init(start: Int64, length: Int64, total: Int64?, limit: Int) {
        self.start = start
        end = start + length
        self.total = total
        self.limit = max(1, limit)
        offset = start
        pieceLimit = max(length, 1)
    }

    /// The first step.
    mutating func begin() -> Action { next() }

    /// The step after `event`; a body limit learnt is returned beside it (for the user).
    mutating func handle(_ event: Event) -> (bodyLimit: Int64?, action: Action) {
        switch (phase, event) {
        case (.sending(let pieceEnd), .answered(let status, let uploadOffset, let sent, let tooLarge, _, let verdict)):
            return answered(status, uploadOffset, sent: sent, pieceEnd: pieceEnd, tooLarge: tooLarge, verdict)
        case (.sending, .transportFailed(let sent, let verdict)):
            return (nil, retry(verdict, otherwise: .lastTransportError, sent: sent))
        case (.waitingAfterFailure(let sent), .waited):
            phase = .askingAfterFailure(sent: sent)
            return (nil, .askOffset)
        case (.askingAfterFailure(let sent), .offsetAnswered(let server)):
            return (nil, resumed(at: server, afterSending: sent))
        case (.askingAfterRefusal, .offsetAnswered(let server)):
            return (nil, ending(server == end ? .finish(cleanly: false) : .fail(.lastAnswer)))
        default:
            return (nil, ending(.fail(.protocolViolation("unexpected \(event) while \(phase)"))))
        }
    }

    // MARK: Rules

    private mutating func answered(
        _ status: Int, _ uploadOffset: Int64?, sent: Int64, pieceEnd: Int64, tooLarge: Bool, _ verdict: RetryVerdict
    ) -> (bodyLimit: Int64?, action: Action) {
        switch status {
        case 200, 204:
            guard let confirmed = uploadOffset, confirmed == pieceEnd else {
                let said = uploadOffset.map(String.init) ?? "missing"
                return (nil, ending(.fail(.protocolViolation("Upload-Offset \(said) after sending up to \(pieceEnd)"))))
            }
            if confirmed == end { return (nil, ending(.finish(cleanly: true))) }
            offset = confirmed
            failures = 0
            return (nil, next())
        case 460:
            checksumFailures += 1
            guard checksumFailures < 3 else { return (nil, ending(.fail(.checksumRejected(offset: offset)))) }
            return (nil, next())
        case 403 where total != nil:
            // "Upload already complete": the last piece arrived with the length, its answer was lost.
            phase = .askingAfterRefusal
            return (nil, .askOffset)
        case _ where tooLarge:
            guard pieceLimit > ChunkSizer.floor else { return (nil, ending(.fail(.lastAnswer))) }
            pieceLimit = max(ChunkSizer.floor, pieceLimit / 2)
            return (pieceLimit, next())
        default:
            return (nil, retry(verdict, otherwise: .lastAnswer, sent: sent))
        }
    }

    /// What of the chunk the server kept after a failed attempt of `sent` bytes: progress starts the count again;
    /// nothing kept shrinks the pieces below half of what got through, on fresh connections.
    private mutating func resumed(at server: Int64, afterSending sent: Int64) -> Action {
        guard server >= start, server <= end else { return ending(.fail(.offsetOutsideChunk(server))) }
        if server > offset {
            failures = 0
        } else {
            pieceLimit = max(ChunkSizer.floor, min(pieceLimit, max(sent, 1)) / 2)
            if sent > 0 { freshConnections = true }
        }
        offset = server
        // All of it arrived; without the length to tell, the chunk is done (with it, an empty PATCH tells it).
        if offset == end, total == nil { return ending(.finish(cleanly: false)) }
        return next()
    }

    private mutating func retry(_ verdict: RetryVerdict, otherwise: Failure, sent: Int64) -> Action {
        guard case .again(let reason, let retryAfter) = verdict else { return ending(.fail(otherwise)) }
        failures += 1
        guard failures < limit else { return ending(.fail(.gaveUp(attempts: failures, reason: reason))) }
        phase = .waitingAfterFailure(sent: sent)
        return .wait(attempt: failures, reason: reason, retryAfter: retryAfter)
    }

    /// The next piece from ``offset``.
    private mutating func next() -> Action {
        let pieceEnd = min(end, offset + pieceLimit)
        phase = .sending(end: pieceEnd)
        return .send(
            start: offset, end: pieceEnd, withLength: total != nil && pieceEnd == end, freshConnection: freshConnections
        )
    }

    private mutating func ending(_ action: Action) -> Action {
        phase = .ended
        return action
    }
}
