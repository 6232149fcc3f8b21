import HTTP
import Testing

@testable import Transfer

/// A stream chunk's PATCH rules as tables of events and the steps they must produce: no server, no clock.
@Suite struct TusStreamMachineTests {
    typealias Machine = TusStreamMachine

    static let mib: Int64 = 1 << 20
    static let again = RetryVerdict.again(reason: "503", retryAfter: nil)

    func answered(
        _ status: Int, offset: Int64? = nil, sent: Int64 = mib, tooLarge: Bool = false,
        verdict: RetryVerdict = .final
    ) -> Machine.Event {
        .answered(
            status: status, uploadOffset: offset, sent: sent, bodyTooLarge: tooLarge, seconds: 0, verdict: verdict)
    }

    @Test func aChunkGoesWholeAndTheLastCarriesTheLength() {
        var chunk = Machine(start: 4 * Self.mib, length: Self.mib, total: 5 * Self.mib, limit: 3)
        #expect(
            chunk.begin() == .send(start: 4 * Self.mib, end: 5 * Self.mib, withLength: true, freshConnection: false))
        #expect(chunk.handle(answered(204, offset: 5 * Self.mib)).action == .finish(cleanly: true))
        var middle = Machine(start: 0, length: Self.mib, total: nil, limit: 3)
        #expect(middle.begin() == .send(start: 0, end: Self.mib, withLength: false, freshConnection: false))
    }

    @Test func anOffsetOtherThanThePiecesEndBreaksTheProtocol() {
        var chunk = Machine(start: 0, length: Self.mib, total: nil, limit: 3)
        _ = chunk.begin()
        guard case .fail(.protocolViolation) = chunk.handle(answered(204, offset: 1000)).action else {
            Issue.record("accepted")
            return
        }
    }

    @Test func aRefusedChecksumIsSentTwiceMoreThenFails() {
        var chunk = Machine(start: 0, length: Self.mib, total: nil, limit: 3)
        _ = chunk.begin()
        #expect(chunk.handle(answered(460)).action.isSend)
        #expect(chunk.handle(answered(460)).action.isSend)
        #expect(chunk.handle(answered(460)).action == .fail(.checksumRejected(offset: 0)))
    }

    @Test func aRefusalOnceTheLengthWentIsCompleteWhenTheServerHasTheEnd() {
        var chunk = Machine(start: 0, length: Self.mib, total: Self.mib, limit: 3)
        _ = chunk.begin()
        #expect(chunk.handle(answered(403)).action == .askOffset)
        #expect(chunk.handle(.offsetAnswered(Self.mib)).action == .finish(cleanly: false))
        var short = Machine(start: 0, length: Self.mib, total: Self.mib, limit: 3)
        _ = short.begin()
        _ = short.handle(answered(403))
        #expect(short.handle(.offsetAnswered(0)).action == .fail(.lastAnswer))
        // Without the length sent, a 403 is a refusal like any other.
        var open = Machine(start: 0, length: Self.mib, total: nil, limit: 3)
        _ = open.begin()
        #expect(open.handle(answered(403)).action == .fail(.lastAnswer))
    }

    @Test func aBodyLimitHalvesThePiecesDownToTheFloor() {
        var chunk = Machine(start: 0, length: Self.mib, total: nil, limit: 3)
        _ = chunk.begin()
        let halved = chunk.handle(answered(413, tooLarge: true))
        #expect(halved.bodyLimit == 512 << 10)
        #expect(halved.action == .send(start: 0, end: 512 << 10, withLength: false, freshConnection: false))
        _ = chunk.handle(answered(413, tooLarge: true))
        #expect(chunk.handle(answered(413, tooLarge: true)).action == .fail(.lastAnswer))
    }

    @Test func aCutThatKeptNothingShrinksThePiecesOnFreshConnections() {
        var chunk = Machine(start: 0, length: 4 * Self.mib, total: nil, limit: 3)
        _ = chunk.begin()
        #expect(chunk.handle(.transportFailed(sent: 3 * Self.mib, verdict: Self.again)).action.isWait)
        #expect(chunk.handle(.waited).action == .askOffset)
        let next = chunk.handle(.offsetAnswered(0)).action
        #expect(next == .send(start: 0, end: 3 * Self.mib / 2, withLength: false, freshConnection: true))
    }

    @Test func whatTheServerKeptIsNotSentAgainAndAllOfItEndsTheChunk() {
        var chunk = Machine(start: 0, length: Self.mib, total: nil, limit: 3)
        _ = chunk.begin()
        _ = chunk.handle(answered(503, verdict: Self.again))
        _ = chunk.handle(.waited)
        #expect(chunk.handle(.offsetAnswered(Self.mib)).action == .finish(cleanly: false))
    }

    @Test func anOffsetOutsideTheChunkFails() {
        var chunk = Machine(start: Self.mib, length: Self.mib, total: nil, limit: 3)
        _ = chunk.begin()
        _ = chunk.handle(answered(503, verdict: Self.again))
        _ = chunk.handle(.waited)
        #expect(chunk.handle(.offsetAnswered(0)).action == .fail(.offsetOutsideChunk(0)))
    }

    @Test func failuresWithoutProgressGiveUpAtTheLimit() {
        var chunk = Machine(start: 0, length: Self.mib, total: nil, limit: 2)
        _ = chunk.begin()
        _ = chunk.handle(answered(503, verdict: Self.again))
        _ = chunk.handle(.waited)
        _ = chunk.handle(.offsetAnswered(0))
        #expect(chunk.handle(answered(503, verdict: Self.again)).action == .fail(.gaveUp(attempts: 2, reason: "503")))
    }
}

extension TusStreamMachine.Action {
    var isSend: Bool {
        if case .send = self { return true }
        return false
    }
    var isWait: Bool {
        if case .wait = self { return true }
        return false
    }
}
