import HTTP

/// The rules of a download streamed to an output that cannot be read back or rewound (stdout for `cat`, a cache
/// entry being filled), as a value: an event in (an answer, a cut, a refusal, a wait over), the next step out (ask
/// from this byte, wait, finish, fail). No I/O, no clock, no lock: the driver (`SegmentedDownloader.stream`) sends
/// the requests and feeds back how many bytes each wrote.
///
/// Rules: the first request may ask `If-None-Match` (a 304 writes nothing and finishes); the first answer's
/// validator (a strong ETag, else Last-Modified), length and version are learnt before its body; after a cut the
/// stream goes on from exactly the bytes written, asked `If-Range` (or `If-Match` where the server ignores
/// `If-Range`), and without a validator it cannot go on at all; an answer that does not continue at that byte, or a
/// whole file after bytes were written, fails (written bytes cannot be taken back); a body that ends short of the
/// length goes on at once; anything the retry policy calls worth another try waits its backoff; failures in a row
/// without progress are counted against `limit`.
struct ResumingStreamMachine: Sendable {
    /// The condition a request carries.
    enum Condition: Equatable, Sendable {
        /// Only if the version differs from this ETag (a cache's copy).
        case ifNoneMatch(String)
        /// The rest of the bytes if still this version, else the whole file (refused).
        case ifRange(String)
        /// The rest of the bytes only if still this version (a 412 otherwise).
        case ifMatch(String)
    }

    /// What the driver does next.
    enum Action: Equatable, Sendable {
        /// GET from byte `from` (the whole file from 0), with `condition`.
        case send(from: Int64, condition: Condition?)
        /// Wait the policy's backoff after failure number `attempt` (quietly: the output holds only the bytes);
        /// then ``Event/waited``.
        case wait(attempt: Int, reason: String, retryAfter: String?)
        /// The stream is whole (or not modified).
        case finish(StreamOutcome)
        /// The stream cannot go on.
        case fail(Failure)
    }

    /// Why a stream failed.
    enum Failure: Equatable, Sendable {
        /// Cut after `written` bytes from a server that gives no validator to resume by.
        case noValidator(written: Int64)
        /// The file changed after bytes were written.
        case unstable
        /// An answer that does not fit what was asked.
        case unexpectedAnswer(reason: String)
        /// The last answer, as it was.
        case lastAnswer
        /// The last transport error, as it was.
        case lastTransportError
    }

    /// What a first answer's header fields said, learnt before its body.
    struct Learnt: Equatable, Sendable {
        var validator: String?
        var total: Int64?
        var strongETag: String?
        var lastModified: String?

        init(_ info: RemoteFileInfo) {
            validator = info.rangeValidator
            total = info.total
            strongETag = info.strongETag
            lastModified = info.lastModified
        }
    }

    /// What happened.
    enum Event: Equatable, Sendable {
        /// Answered `status` after writing `wrote` bytes; `learnt` from a first answer's fields; the answer's `etag`;
        /// the policy's verdict on it as a failure.
        case answered(status: Int, wrote: Int64, learnt: Learnt?, etag: String?, verdict: RetryVerdict)
        /// The request's check refused an answer with `status`: `reason`.
        case refused(status: Int, reason: String)
        /// The request failed on the way after writing `wrote` bytes.
        case transportFailed(wrote: Int64, learnt: Learnt?, verdict: RetryVerdict)
        /// A wait asked for is over.
        case waited
    }

    /// The ETag of the copy the caller holds, asked `If-None-Match` first.
    let ifNoneMatch: String?
    /// Resume with `If-Match` (the server ignores `If-Range`).
    let preferIfMatch: Bool
    /// Failures in a row without progress that end the stream.
    let limit: Int

    /// Bytes written to the output.
    private(set) var written: Int64 = 0
    /// What the first answer said.
    private(set) var learnt: Learnt?
    private var failures = 0
    private var phase = Phase.idle

    private enum Phase: Equatable { case idle, sending, waiting, ended }

    /// A machine for one stream.
    init(ifNoneMatch: String?, preferIfMatch: Bool, limit: Int) {
        self.ifNoneMatch = ifNoneMatch
        self.preferIfMatch = preferIfMatch
        self.limit = max(1, limit)
    }

    /// The first step.
    mutating func begin() -> Action { next() }

    /// Whether an answer with `status` and `headers` is refused before its body (nil: taken), for a request sent
    /// when `written` bytes were out and the file was `total` long; `requireLength` refuses a file answered
    /// without a length (a server that promises lengths and sends none could send forever).
    static func refusal(
        status: Int, headers: HTTPHeaders, written: Int64, total: Int64?, requireLength: Bool
    ) -> String? {
        guard written > 0 else {
            if status == 200, requireLength, headers["Content-Length"] == nil { return "no Content-Length for a file" }
            return status == 206 ? "a range that was not asked for" : nil
        }
        if status == 200 { return "the file changed on the server after \(written) bytes were written" }
        if status == 206 {
            let parsed = headers["Content-Range"].flatMap(HTTPHeaders.parseContentRange)
            if parsed?.range?.lowerBound != written || (total != nil && parsed?.total != total) {
                return "Content-Range \(headers["Content-Range"] ?? "missing") does not continue at byte \(written)"
            }
        }
        return nil
    }

    /// The step after `event`.
    mutating func handle(_ event: Event) -> Action {
        switch (phase, event) {
        case (.sending, .answered(let status, let wrote, let learnt, let etag, let verdict)):
            let before = take(wrote, learnt: learnt)
            return answered(status: status, before: before, etag: etag, verdict: verdict)
        case (.sending, .refused(let status, let reason)):
            return ended(.fail(written > 0 && status == 200 ? .unstable : .unexpectedAnswer(reason: reason)))
        case (.sending, .transportFailed(let wrote, let learnt, let verdict)):
            take(wrote, learnt: learnt)
            return retry(verdict, progressed: wrote > 0, otherwise: .lastTransportError)
        case (.waiting, .waited):
            return next()
        default:
            return ended(.fail(.unexpectedAnswer(reason: "unexpected \(event) while \(phase)")))
        }
    }

    // MARK: Rules

    /// Counts what an attempt wrote and, for the first answer, what it said; returns the bytes out before it.
    @discardableResult
    private mutating func take(_ wrote: Int64, learnt: Learnt?) -> Int64 {
        let before = written
        if before == 0, let learnt { self.learnt = learnt }
        written += wrote
        return before
    }

    private mutating func answered(status: Int, before: Int64, etag: String?, verdict: RetryVerdict) -> Action {
        if status == 304, before == 0, let ifNoneMatch {
            return ended(.finish(StreamOutcome(written: 0, notModified: true, etag: etag ?? ifNoneMatch)))
        }
        guard (200..<300).contains(status) else { return retry(verdict, progressed: false, otherwise: .lastAnswer) }
        if let total = learnt?.total, written < total {
            // Cut short without an error: on at once while it moves, a failure when it brought nothing.
            let short = RetryVerdict.again(
                reason: "the answer ended after \(written) of \(total) bytes", retryAfter: nil)
            return written > before ? next(resetting: true) : retry(short, progressed: false, otherwise: .lastAnswer)
        }
        return ended(
            .finish(
                StreamOutcome(
                    written: written, notModified: false, etag: learnt?.strongETag, lastModified: learnt?.lastModified)
            ))
    }

    /// A failed attempt: waited for when the policy calls it worth another, else final. One that wrote bytes starts
    /// the count again.
    private mutating func retry(_ verdict: RetryVerdict, progressed: Bool, otherwise: Failure) -> Action {
        guard case .again(let reason, let retryAfter) = verdict else { return ended(.fail(otherwise)) }
        if progressed { failures = 0 }
        failures += 1
        guard failures < limit else { return ended(.fail(otherwise)) }
        phase = .waiting
        return .wait(attempt: failures, reason: reason, retryAfter: retryAfter)
    }

    private mutating func next(resetting: Bool = false) -> Action {
        if resetting { failures = 0 }
        guard written > 0 else {
            phase = .sending
            return .send(from: 0, condition: ifNoneMatch.map { .ifNoneMatch($0) })
        }
        guard let validator = learnt?.validator else { return ended(.fail(.noValidator(written: written))) }
        phase = .sending
        // With If-Match a changed file answers 412, which fails the stream: bytes already written cannot be taken back.
        let ifMatch = preferIfMatch && !validator.hasPrefix("W/") && validator.hasPrefix("\"")
        return .send(from: written, condition: ifMatch ? .ifMatch(validator) : .ifRange(validator))
    }

    private mutating func ended(_ action: Action) -> Action {
        phase = .ended
        return action
    }
}
