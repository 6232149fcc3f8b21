import HTTP
import Journal
import Testing

@testable import Transfer

/// One range's rules as tables of events and the steps they must produce: what is asked, what a changed file or an
/// odd answer does, how failures are counted. No server, no clock, no sleep.
@Suite struct RangeFetchMachineTests {
    typealias Machine = RangeFetchMachine

    static let again = RetryVerdict.again(reason: "503", retryAfter: "2")

    /// Bytes 1000 through 1999 of a 4000-byte file, `done` of them already on disk.
    func machine(done: Int64 = 0, limit: Int = 3, pieces: Int64? = nil) -> Machine {
        Machine(
            segment: TransferJournal.Segment(index: 1, start: 1000, end: 1999, done: done, synced: 0), total: 4000,
            etag: "\"v1\"", limit: limit, pieceLimit: pieces)
    }

    func answered(_ status: Int, done: Int64, verdict: RetryVerdict = .final, total: Int64? = nil) -> Machine.Event {
        .answered(status: status, done: done, announcedTotal: total, verdict: verdict)
    }

    @Test func aWholeAnswerFinishesTheRange() {
        var range = machine()
        #expect(range.begin() == .send(from: 1000, through: 1999))
        #expect(range.handle(answered(206, done: 1000)) == .finish)
    }

    @Test func aRangeThatHoldsBytesAsksOnlyForTheRest() {
        var range = machine(done: 400)
        #expect(range.begin() == .send(from: 1400, through: 1999))
        var whole = machine(done: 1000)
        #expect(whole.begin() == .finish)
    }

    /// An engine that stores a body only once it is whole asks a range in pieces, each after the one before, the last
    /// one short; a cut piece is asked again from where the range stands.
    @Test func limitedPiecesAskTheRangeInTurn() {
        var range = machine(done: 100, pieces: 400)
        #expect(range.begin() == .send(from: 1100, through: 1499))
        #expect(range.handle(answered(206, done: 500)) == .send(from: 1500, through: 1899))
        #expect(
            range.handle(.transportFailed(done: 500, verdict: Self.again))
                == .wait(attempt: 1, reason: "503", retryAfter: "2"))
        #expect(range.handle(.waited) == .send(from: 1500, through: 1899))
        #expect(range.handle(answered(206, done: 900)) == .send(from: 1900, through: 1999))
        #expect(range.handle(answered(206, done: 1000)) == .finish)
    }

    @Test func aShortAnswerAsksForTheRestAtOnce() {
        var range = machine()
        _ = range.begin()
        #expect(range.handle(answered(206, done: 300)) == .send(from: 1300, through: 1999))
    }

    @Test func aGoneETagOrAShorterFileStartsTheDownloadOver() {
        var gone = machine()
        _ = gone.begin()
        #expect(
            gone.handle(answered(412, done: 0))
                == .restart(reason: "the file changed on the server (its ETag is no longer \"v1\")", changed: true))
        var shorter = machine()
        _ = shorter.begin()
        #expect(
            shorter.handle(answered(416, done: 0, total: 1500))
                == .restart(reason: "the server's file is now 1500 bytes, not 4000", changed: true))
    }

    @Test func aRefusedAnswerStartsOverAndAWholeFileForARangeMeansItChanged() {
        var whole = machine()
        _ = whole.begin()
        #expect(whole.handle(.refused(status: 200, reason: "whole")) == .restart(reason: "whole", changed: true))
        var odd = machine()
        _ = odd.begin()
        #expect(odd.handle(.refused(status: 206, reason: "range")) == .restart(reason: "range", changed: false))
    }

    @Test func aFailureWorthAnotherTryWaitsWithTheServersRetryAfterThenAsksTheRest() {
        var range = machine()
        _ = range.begin()
        #expect(
            range.handle(answered(503, done: 0, verdict: Self.again))
                == .wait(attempt: 1, reason: "503", retryAfter: "2"))
        #expect(range.handle(.waited) == .send(from: 1000, through: 1999))
        // Cut after 200 bytes: the next request starts where the bytes end.
        #expect(
            range.handle(.transportFailed(done: 200, verdict: Self.again))
                == .wait(attempt: 1, reason: "503", retryAfter: "2"))
        #expect(range.handle(.waited) == .send(from: 1200, through: 1999))
    }

    @Test func failuresWithoutProgressGiveUpAtTheLimit() {
        var range = machine(limit: 3)
        _ = range.begin()
        #expect(
            range.handle(.transportFailed(done: 0, verdict: Self.again))
                == .wait(attempt: 1, reason: "503", retryAfter: "2"))
        _ = range.handle(.waited)
        #expect(
            range.handle(.transportFailed(done: 0, verdict: Self.again))
                == .wait(attempt: 2, reason: "503", retryAfter: "2"))
        _ = range.handle(.waited)
        #expect(range.handle(.transportFailed(done: 0, verdict: Self.again)) == .fail)
    }

    @Test func aFailedAttemptThatMovedTheRangeOnStartsTheCountAgain() {
        var range = machine(limit: 3)
        _ = range.begin()
        var done: Int64 = 0
        // A slow link that keeps moving never runs out of attempts.
        for _ in 0..<10 {
            done += 50
            #expect(
                range.handle(.transportFailed(done: done, verdict: Self.again))
                    == .wait(attempt: 1, reason: "503", retryAfter: "2"))
            #expect(range.handle(.waited) == .send(from: 1000 + done, through: 1999))
        }
    }

    @Test func aSuccessStartsTheCountAgain() {
        var range = machine(limit: 2)
        _ = range.begin()
        _ = range.handle(.transportFailed(done: 0, verdict: Self.again))
        _ = range.handle(.waited)
        _ = range.handle(answered(206, done: 100))
        #expect(
            range.handle(.transportFailed(done: 100, verdict: Self.again))
                == .wait(attempt: 1, reason: "503", retryAfter: "2"))
    }

    @Test func aFinalAnswerOrErrorFailsAtOnce() {
        var refused = machine()
        _ = refused.begin()
        #expect(refused.handle(answered(403, done: 0)) == .fail)
        var broken = machine()
        _ = broken.begin()
        #expect(broken.handle(.transportFailed(done: 0, verdict: .final)) == .fail)
    }

    @Test func anEventOutOfTurnFails() {
        var range = machine()
        _ = range.begin()
        #expect(range.handle(.waited) == .fail)
    }
}
