import HTTP
import Testing

@testable import Transfer

/// The tus PATCH loop's rules as tables of events and the steps they must produce: no server, no clock, no sleep.
@Suite struct TusPatchMachineTests {
    typealias Machine = TusPatchMachine
    typealias Event = TusPatchMachine.Event

    static let mib: Int64 = 1 << 20

    /// A part of `length` bytes from `offset`, fixed 1 MiB chunks unless `adaptive`.
    func machine(
        offset: Int64 = 0, length: Int64 = 4 << 20, adaptive: Bool = false, limit: Int = 3, checksums: Bool = true,
        wholeFile: Bool = false
    ) -> Machine {
        Machine(
            offset: offset, length: length, sizer: ChunkSizer(fixed: adaptive ? nil : Self.mib), limit: limit,
            checksums: checksums, finalChunkInMemory: wholeFile)
    }

    /// A 204 confirming `offset`.
    func confirmed(_ offset: Int64, sent: Int64 = mib) -> Event {
        .answered(status: 204, uploadOffset: offset, sent: sent, bodyTooLarge: false, seconds: 1, verdict: .final)
    }

    func answered(_ status: Int, sent: Int64 = mib, verdict: RetryVerdict = .final, tooLarge: Bool = false) -> Event {
        .answered(status: status, uploadOffset: nil, sent: sent, bodyTooLarge: tooLarge, seconds: 1, verdict: verdict)
    }

    static let again = RetryVerdict.again(reason: "503", retryAfter: "2")

    func sends(_ action: Machine.Action) -> (offset: Int64, length: Int64, fresh: Bool)? {
        guard case .send(let offset, let length, let fresh) = action else { return nil }
        return (offset, length, fresh)
    }

    @Test func aCleanRunSendsEachChunkAndFinishesCleanly() {
        var part = machine()
        var action = part.start()
        var confirmedOffsets: [Int64] = []
        while let chunk = sends(action) {
            let (notices, next) = part.handle(confirmed(chunk.offset + chunk.length))
            for case .confirmed(let offset) in notices { confirmedOffsets.append(offset) }
            action = next
        }
        #expect(confirmedOffsets == [1, 2, 3, 4].map { $0 * Self.mib })
        #expect(action == .finish(cleanly: true))
    }

    @Test func aConflictWaitsQuietlyAsksAndTheServersOffsetWins() {
        var part = machine()
        _ = part.start()
        let afterConflict = part.handle(answered(409))
        #expect(
            afterConflict.action
                == .wait(attempt: 1, reason: "the server's offset differs (409)", retryAfter: nil, announced: false))
        #expect(part.handle(.waited).action == .askOffset)
        let resumed = part.handle(.offsetAnswered(512 << 10))
        #expect(sends(resumed.action)?.offset == 512 << 10)
    }

    @Test func conflictsWithoutProgressEndAtTheLimit() {
        var part = machine(limit: 2)
        _ = part.start()
        _ = part.handle(answered(409))
        _ = part.handle(.waited)
        _ = part.handle(.offsetAnswered(0))
        #expect(part.handle(answered(409)).action == .fail(.conflictsWithoutProgress))
    }

    @Test func aRetryableFailureWaitsAsksAndGoesOnWhereTheServerIs() {
        var part = machine()
        _ = part.start()
        let failed = part.handle(answered(503, verdict: Self.again))
        #expect(failed.action == .wait(attempt: 1, reason: "503", retryAfter: "2", announced: true))
        #expect(part.handle(.waited).action == .askOffset)
        #expect(sends(part.handle(.offsetAnswered(0)).action)?.offset == 0)
    }

    @Test func failuresInARowGiveUpAndProgressStartsTheCountAgain() {
        var part = machine(limit: 2)
        _ = part.start()
        _ = part.handle(answered(503, verdict: Self.again))
        _ = part.handle(.waited)
        // The server had kept bytes: progress, so the count starts again.
        _ = part.handle(.offsetAnswered(256 << 10))
        #expect(part.handle(answered(503, verdict: Self.again)).action.isWait)
        _ = part.handle(.waited)
        _ = part.handle(.offsetAnswered(256 << 10))
        #expect(part.handle(answered(503, verdict: Self.again)).action == .fail(.gaveUp(attempts: 2, reason: "503")))
    }

    @Test func aFinalAnswerFailsAsItWas() {
        var part = machine()
        _ = part.start()
        #expect(part.handle(answered(500, verdict: .final)).action == .fail(.lastAnswer))
        var other = machine()
        _ = other.start()
        #expect(other.handle(.transportFailed(sent: 0, verdict: .final)).action == .fail(.lastTransportError))
    }

    @Test func aLockedUploadIsWaitedFor() {
        var part = machine()
        _ = part.start()
        let locked = part.handle(answered(423))
        #expect(
            locked.action
                == .wait(
                    attempt: 1, reason: "the upload is locked by an earlier request (423)", retryAfter: nil,
                    announced: true))
    }

    @Test func anUploadTheServerLostStartsOver() {
        for status in [404, 410] {
            var part = machine()
            _ = part.start()
            #expect(part.handle(answered(status)).action == .fail(.uploadGone(status: status)))
        }
    }

    @Test func aRefusedChecksumIsSentTwiceMoreThenFails() {
        var part = machine()
        _ = part.start()
        #expect(part.handle(answered(460)).notices == [.checksumMismatch(attempt: 2)])
        #expect(part.handle(answered(460)).notices == [.checksumMismatch(attempt: 3)])
        #expect(part.handle(answered(460)).action == .fail(.checksumRejected(offset: 0)))
    }

    @Test func aRefusalAfterBytesIsCompleteWhenTheServerHasTheEnd() {
        var part = machine(offset: 3 << 20)
        _ = part.start()
        #expect(part.handle(answered(403)).action == .askOffset)
        #expect(part.handle(.offsetAnswered(4 << 20)).action == .finish(cleanly: false))
        var short = machine(offset: 3 << 20)
        _ = short.start()
        _ = short.handle(answered(403))
        #expect(short.handle(.offsetAnswered(3 << 20)).action == .fail(.lastAnswer))
        // At offset zero a 403 is a refusal like any other.
        var first = machine()
        _ = first.start()
        #expect(first.handle(answered(403)).action == .fail(.lastAnswer))
    }

    @Test func anOffsetOutsideTheChunkBreaksTheProtocol() {
        for said: Int64? in [nil, 0, (1 << 20) + 1] {
            var part = machine()
            _ = part.start()
            let event = Event.answered(
                status: 204, uploadOffset: said, sent: Self.mib, bodyTooLarge: false, seconds: 1, verdict: .final)
            guard case .fail(.protocolViolation) = part.handle(event).action else {
                Issue.record("\(String(describing: said)) accepted")
                continue
            }
        }
    }

    @Test func aBodyLimitHalvesTheChunksForGood() {
        var part = machine(length: 64 << 20, adaptive: true)
        let first = sends(part.start())
        #expect(first?.length == Self.mib)
        let limited = part.handle(answered(413, tooLarge: true))
        #expect(limited.notices == [.bodyLimit(512 << 10)])
        #expect(sends(limited.action)?.length == 512 << 10)
    }

    @Test func aCutThatKeptNothingCapsLaterChunksOnFreshConnections() {
        var part = machine(length: 64 << 20, adaptive: true)
        _ = part.start()
        _ = part.handle(.transportFailed(sent: 700 << 10, verdict: Self.again))
        _ = part.handle(.waited)
        let next = sends(part.handle(.offsetAnswered(0)).action)
        #expect(next?.fresh == true && (next?.length ?? .max) < 700 << 10)
    }

    @Test func theWholeFilesLastBytesGoAloneAndNothingIsComputedAheadForThem() {
        var part = machine(length: (3 << 20) + 100, adaptive: true, wholeFile: true)
        var action = part.start()
        var lengths: [Int64] = []
        var aheads: [Machine.Chunk?] = []
        while case .send(let offset, let length, _) = action {
            lengths.append(length)
            aheads.append(part.likelyChunk(at: offset + length))
            action = part.handle(confirmed(offset + length, sent: length)).action
        }
        // The chunk before the tail takes the sliver with it (1 MiB wanted, 100 bytes more), then the 2 MiB tail
        // goes whole.
        #expect(lengths == [Self.mib + 100, 2 << 20])
        #expect(aheads.last == .some(nil))
        #expect(action == .finish(cleanly: true))
    }

    @Test func anEventOutOfTurnIsAProtocolViolationNotACrash() {
        var part = machine()
        _ = part.start()
        guard case .fail(.protocolViolation) = part.handle(.waited).action else {
            Issue.record("accepted")
            return
        }
    }
}

extension TusPatchMachine.Action {
    var isWait: Bool {
        if case .wait = self { return true }
        return false
    }
}
