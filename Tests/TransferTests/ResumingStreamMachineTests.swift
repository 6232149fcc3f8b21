import HTTP
import Testing

@testable import Transfer

/// A stream's rules (stdout, a cache fill: output that cannot be rewound) as tables of events and the steps they
/// must produce. No server, no clock, no sleep.
@Suite struct ResumingStreamMachineTests {
    typealias Machine = ResumingStreamMachine
    typealias Learnt = ResumingStreamMachine.Learnt

    static let again = RetryVerdict.again(reason: "reset", retryAfter: nil)

    static func learnt(etag: String? = "\"v1\"", modified: String? = nil, total: Int64? = 1000) -> Learnt {
        Learnt(RemoteFileInfo(total: total, etag: etag, lastModified: modified, acceptsRanges: true))
    }

    func answered(_ status: Int, wrote: Int64, learnt: Learnt? = learnt(), etag: String? = nil) -> Machine.Event {
        .answered(
            status: status, wrote: wrote, learnt: learnt, etag: etag, verdict: status >= 500 ? Self.again : .final)
    }

    @Test func aWholeAnswerFinishesWithItsVersion() {
        var stream = Machine(ifNoneMatch: nil, preferIfMatch: false, limit: 3)
        #expect(stream.begin() == .send(from: 0, condition: nil))
        #expect(
            stream.handle(answered(200, wrote: 1000))
                == .finish(StreamOutcome(written: 1000, notModified: false, etag: "\"v1\"", lastModified: nil)))
    }

    @Test func aCopyStillCurrentWritesNothing() {
        var stream = Machine(ifNoneMatch: "\"v1\"", preferIfMatch: false, limit: 3)
        #expect(stream.begin() == .send(from: 0, condition: .ifNoneMatch("\"v1\"")))
        #expect(
            stream.handle(answered(304, wrote: 0, learnt: nil, etag: nil))
                == .finish(StreamOutcome(written: 0, notModified: true, etag: "\"v1\"")))
    }

    @Test func aCutStreamGoesOnFromExactlyTheBytesWrittenHeldToItsVersion() {
        var stream = Machine(ifNoneMatch: nil, preferIfMatch: false, limit: 3)
        _ = stream.begin()
        #expect(
            stream.handle(.transportFailed(wrote: 300, learnt: Self.learnt(), verdict: Self.again))
                == .wait(attempt: 1, reason: "reset", retryAfter: nil))
        #expect(stream.handle(.waited) == .send(from: 300, condition: .ifRange("\"v1\"")))
        #expect(
            stream.handle(answered(206, wrote: 700, learnt: nil))
                == .finish(StreamOutcome(written: 1000, notModified: false, etag: "\"v1\"", lastModified: nil)))
    }

    @Test func whereIfRangeIsIgnoredTheStreamAsksIfMatchAndADateStaysIfRange() {
        var strong = Machine(ifNoneMatch: nil, preferIfMatch: true, limit: 3)
        _ = strong.begin()
        _ = strong.handle(.transportFailed(wrote: 10, learnt: Self.learnt(), verdict: Self.again))
        #expect(strong.handle(.waited) == .send(from: 10, condition: .ifMatch("\"v1\"")))

        let date = "Mon, 01 Jun 2026 10:00:00 GMT"
        var dated = Machine(ifNoneMatch: nil, preferIfMatch: true, limit: 3)
        _ = dated.begin()
        _ = dated.handle(
            .transportFailed(wrote: 10, learnt: Self.learnt(etag: nil, modified: date), verdict: Self.again))
        #expect(dated.handle(.waited) == .send(from: 10, condition: .ifRange(date)))
    }

    @Test func withoutAValidatorACutStreamCannotGoOn() {
        var stream = Machine(ifNoneMatch: nil, preferIfMatch: false, limit: 3)
        _ = stream.begin()
        _ = stream.handle(.transportFailed(wrote: 10, learnt: Self.learnt(etag: "W/\"weak\""), verdict: Self.again))
        #expect(stream.handle(.waited) == .fail(.noValidator(written: 10)))
    }

    @Test func aCutBeforeAnyByteStartsAgainFromZero() {
        var stream = Machine(ifNoneMatch: "\"old\"", preferIfMatch: false, limit: 3)
        _ = stream.begin()
        _ = stream.handle(.transportFailed(wrote: 0, learnt: nil, verdict: Self.again))
        #expect(stream.handle(.waited) == .send(from: 0, condition: .ifNoneMatch("\"old\"")))
    }

    @Test func aBodyEndingShortGoesOnAtOnceWhileItMovesAndCountsWhenItBringsNothing() {
        var stream = Machine(ifNoneMatch: nil, preferIfMatch: false, limit: 2)
        _ = stream.begin()
        #expect(stream.handle(answered(200, wrote: 400)) == .send(from: 400, condition: .ifRange("\"v1\"")))
        #expect(
            stream.handle(answered(206, wrote: 0, learnt: nil))
                == .wait(attempt: 1, reason: "the answer ended after 400 of 1000 bytes", retryAfter: nil))
        _ = stream.handle(.waited)
        #expect(stream.handle(answered(206, wrote: 0, learnt: nil)) == .fail(.lastAnswer))
    }

    @Test func afterBytesWereWrittenAWholeFileIsAChangedFileAndAnOddRangeIsRefused() {
        var changed = Machine(ifNoneMatch: nil, preferIfMatch: false, limit: 3)
        _ = changed.begin()
        _ = changed.handle(.transportFailed(wrote: 10, learnt: Self.learnt(), verdict: Self.again))
        _ = changed.handle(.waited)
        #expect(changed.handle(.refused(status: 200, reason: "changed")) == .fail(.unstable))

        var odd = Machine(ifNoneMatch: nil, preferIfMatch: false, limit: 3)
        _ = odd.begin()
        #expect(odd.handle(.refused(status: 206, reason: "not asked")) == .fail(.unexpectedAnswer(reason: "not asked")))
    }

    @Test func theRefusalRuleReadsTheAnswerBeforeItsBody() {
        let fields = { (pairs: [(String, String)]) -> HTTPHeaders in
            var headers = HTTPHeaders()
            for (name, value) in pairs { headers.add(name, value) }
            return headers
        }
        let refusal = Machine.refusal
        #expect(refusal(200, fields([("Content-Length", "5")]), 0, nil, true) == nil)
        #expect(refusal(200, fields([]), 0, nil, true) == "no Content-Length for a file")
        #expect(refusal(206, fields([]), 0, nil, false) == "a range that was not asked for")
        #expect(
            refusal(200, fields([]), 10, 100, false) == "the file changed on the server after 10 bytes were written")
        #expect(refusal(206, fields([("Content-Range", "bytes 10-99/100")]), 10, 100, false) == nil)
        #expect(
            refusal(206, fields([("Content-Range", "bytes 11-99/100")]), 10, 100, false)
                == "Content-Range bytes 11-99/100 does not continue at byte 10")
        #expect(
            refusal(206, fields([("Content-Range", "bytes 10-99/101")]), 10, 100, false)
                == "Content-Range bytes 10-99/101 does not continue at byte 10")
    }

    @Test func failuresWithoutProgressGiveUpAndProgressStartsTheCountAgain() {
        var stream = Machine(ifNoneMatch: nil, preferIfMatch: false, limit: 2)
        _ = stream.begin()
        _ = stream.handle(.transportFailed(wrote: 10, learnt: Self.learnt(), verdict: Self.again))
        _ = stream.handle(.waited)
        #expect(
            stream.handle(.transportFailed(wrote: 5, learnt: nil, verdict: Self.again))
                == .wait(attempt: 1, reason: "reset", retryAfter: nil))
        _ = stream.handle(.waited)
        #expect(
            stream.handle(.transportFailed(wrote: 0, learnt: nil, verdict: Self.again)) == .fail(.lastTransportError))
        var refused = Machine(ifNoneMatch: nil, preferIfMatch: false, limit: 3)
        _ = refused.begin()
        #expect(refused.handle(answered(404, wrote: 0, learnt: nil)) == .fail(.lastAnswer))
    }
}
