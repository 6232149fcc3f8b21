import HTTP
import Journal

/// The rules of one range of a segmented download, as a value: an event in (an answer, a cut, a refusal, a wait
/// over), the next step out (ask the rest of the range, wait, finish, start the download over, fail). No I/O, no
/// clock, no lock: the driver (`SegmentedDownloader.fetch`) sends the requests into the temp file, waits on the
/// injected clock, and feeds back how far the range got.
///
/// Rules: each request asks from the first byte the range lacks to its end (or a piece's, when pieces are limited); a
/// 206 is progress; a 412 (the ETag asked `If-Match` is gone) or a 416 (the file is shorter now) means the file
/// changed: the download starts over; an answer the request's check refused (a 200 for a range: changed, or ranges
/// ignored; a Content-Range that is not the one asked) starts it over too; anything the retry policy calls worth
/// another try waits its backoff; failures in a row without progress are counted against `limit`, and an attempt that
/// moved the range on starts the count again.
struct RangeFetchMachine: Sendable {
    /// What the driver does next.
    enum Action: Equatable, Sendable {
        /// GET bytes `from` through `through` (the range's end, or the end of a piece) into the temp file at `from`.
        case send(from: Int64, through: Int64)
        /// Wait the policy's backoff after failure number `attempt` (the server's `Retry-After` when given), told to
        /// the user; then ``Event/waited``.
        case wait(attempt: Int, reason: String, retryAfter: String?)
        /// The range is whole.
        case finish
        /// The whole download starts over: `changed`, because the server's file changed.
        case restart(reason: String, changed: Bool)
        /// The range cannot go on: the last answer or transport error is the failure, as it was.
        case fail
    }

    /// What happened.
    enum Event: Equatable, Sendable {
        /// The request was answered with `status`; the range now holds `done` bytes; a 416 told the file's length as
        /// `announcedTotal`; `verdict` is the policy's on the answer as a failure.
        case answered(status: Int, done: Int64, announcedTotal: Int64?, verdict: RetryVerdict)
        /// The request's check refused an answer with `status` before its body: `reason`.
        case refused(status: Int, reason: String)
        /// The request failed on the way; the range now holds `done` bytes; the policy's verdict on the error.
        case transportFailed(done: Int64, verdict: RetryVerdict)
        /// A wait asked for is over.
        case waited
    }

    /// The range's first byte.
    let start: Int64
    /// The range's last byte.
    let end: Int64
    /// The file's length.
    let total: Int64
    /// The ETag the download holds the ranges to, for the words of a restart.
    let etag: String?
    /// Failures in a row without progress that end the range.
    let limit: Int
    /// The most one request asks for (nil: the rest of the range): an engine that stores a body only once it is
    /// whole loses at most this to an interruption.
    let pieceLimit: Int64?

    /// Bytes of the range on disk.
    private(set) var done: Int64
    private var failures = 0
    private var phase = Phase.idle

    private enum Phase: Equatable {
        case idle
        /// A request on the wire, sent when the range held `base` bytes.
        case sending(base: Int64)
        case waiting
        case ended
    }

    /// A machine for `segment` of a file of `total` bytes.
    init(segment: TransferJournal.Segment, total: Int64, etag: String?, limit: Int, pieceLimit: Int64? = nil) {
        self.pieceLimit = pieceLimit.map { max(1, $0) }
        start = segment.start
        end = segment.end
        done = segment.done
        self.total = total
        self.etag = etag
        self.limit = max(1, limit)
    }

    /// The first step.
    mutating func begin() -> Action { next() }

    /// The step after `event`.
    mutating func handle(_ event: Event) -> Action {
        switch (phase, event) {
        case (.sending(let base), .answered(let status, let now, let announced, let verdict)):
            done = max(done, now)
            return answered(status: status, base: base, announcedTotal: announced, verdict: verdict)
        case (.sending, .refused(let status, let reason)):
            return ended(.restart(reason: reason, changed: status == 200))
        case (.sending(let base), .transportFailed(let now, let verdict)):
            done = max(done, now)
            return retry(verdict, base: base)
        case (.waiting, .waited):
            return next()
        default:
            return ended(.fail)
        }
    }

    // MARK: Rules

    private mutating func answered(status: Int, base: Int64, announcedTotal: Int64?, verdict: RetryVerdict) -> Action {
        switch status {
        case 206:
            failures = 0
            return next()
        case 412:
            return ended(
                .restart(
                    reason: "the file changed on the server (its ETag is no longer \(etag ?? "the same"))",
                    changed: true))
        case 416:
            // Our range starts inside the length we were promised; a 416 means the file is shorter now.
            let now = announcedTotal.map(String.init) ?? "of unknown"
            return ended(.restart(reason: "the server's file is now \(now) bytes, not \(total)", changed: true))
        default:
            return retry(verdict, base: base)
        }
    }

    /// A failed attempt: waited for when the policy calls it worth another, else final. One that moved the range on
    /// starts the count again: slow progress is still progress.
    private mutating func retry(_ verdict: RetryVerdict, base: Int64) -> Action {
        guard case .again(let reason, let retryAfter) = verdict else { return ended(.fail) }
        if done > base { failures = 0 }
        failures += 1
        guard failures < limit else { return ended(.fail) }
        phase = .waiting
        return .wait(attempt: failures, reason: reason, retryAfter: retryAfter)
    }

    private mutating func next() -> Action {
        guard start + done <= end else { return ended(.finish) }
        phase = .sending(base: done)
        let from = start + done
        return .send(from: from, through: pieceLimit.map { min(end, from + $0 - 1) } ?? end)
    }

    private mutating func ended(_ action: Action) -> Action {
        phase = .ended
        return action
    }
}
