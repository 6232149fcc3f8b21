import FileModel
import HTTP
import TestSupport
import Testing

/// The one retry loop reads time from the clock it is given (the HTTP configuration's): its waits are checked on a
/// manual clock, event by event, with no test waiting for them to pass.
@Suite struct RetryLoopClockTests {
    /// Attempts as the loop makes them, and what each answers.
    final class Script: Sendable {
        private let steps: LockedValue<[RetryStepKind]>
        let attempts = LockedValue(0)

        enum RetryStepKind: Sendable {
            case fail(retryAfter: String?)
            case progress
            case done
        }

        init(_ steps: [RetryStepKind]) { self.steps = LockedValue(steps) }

        func next() -> RetryStep<Int> {
            attempts.withLock { $0 += 1 }
            let step = steps.withLock { $0.isEmpty ? .done : $0.removeFirst() }
            switch step {
            case .fail(let retryAfter):
                return .again(reason: "503", retryAfter: retryAfter) { attempts in throw GaveUp(attempts: attempts) }
            case .progress: return .next
            case .done: return .done(attempts.current)
            }
        }
    }

    struct GaveUp: Error, Equatable { var attempts: Int }

    func loop(_ clock: ManualClock, limit: Int = 4) -> RetryLoop {
        var policy = RetryPolicy()
        policy.baseDelay = 1
        policy.maxDelay = 30
        return RetryLoop(policy: policy, limit: limit, clock: clock)
    }

    /// `Retry-After: 7` is a wait of exactly 7 s on the clock: nothing happens before, the next attempt after.
    @Test func retryAfterIsAWaitOnTheClock() async throws {
        let clock = ManualClock()
        let script = Script([.fail(retryAfter: "7"), .done])
        let run = Task { try await loop(clock).run { script.next() } }
        let deadline = await clock.nextSleep()
        #expect(deadline.offset == .seconds(7))
        clock.advance(by: .seconds(6))
        #expect(script.attempts.current == 1)
        clock.advance(by: .seconds(1))
        #expect(try await run.value == 2)
    }

    /// Without `Retry-After`, each wait is the policy's backoff (full jitter under a doubling ceiling), and the
    /// loop gives up after `limit` failures in a row with what `otherwise` says.
    @Test func backoffDoublesAndTheLimitEndsIt() async throws {
        let clock = ManualClock()
        let script = Script([.fail(retryAfter: nil), .fail(retryAfter: nil), .fail(retryAfter: nil)])
        let run = Task { try await loop(clock, limit: 3).run { script.next() } }
        var start = clock.now
        for ceiling in [1.0, 2.0] {
            let deadline = await clock.nextSleep()
            let wait = start.duration(to: deadline)
            #expect(wait >= .seconds(ceiling / 2) && wait <= .seconds(ceiling), "\(wait)")
            clock.advance(by: wait)
            start = deadline
        }
        await #expect(throws: GaveUp(attempts: 3)) { try await run.value }
    }

    /// Progress between failures starts the count again: a slow link that keeps moving never runs out.
    @Test func progressStartsTheCountAgain() async throws {
        let clock = ManualClock()
        let steps: [Script.RetryStepKind] = Array(
            repeating: [Script.RetryStepKind.fail(retryAfter: "1"), .progress], count: 5
        ).flatMap { $0 }
        let script = Script(steps + [.done])
        let run = Task {
            let retryLoop = loop(clock, limit: 2)
            return try await retryLoop.run {
                let step = script.next()
                // What an attempt that moved bytes tells its loop.
                if case .next = step { retryLoop.progressed() }
                return step
            }
        }
        for _ in 0..<5 {
            _ = await clock.nextSleep()
            clock.advance(by: .seconds(1))
        }
        #expect(try await run.value == 11)
    }

    /// Cancelled during a wait, the loop ends at once with `CancellationError`, the clock never moved.
    @Test func cancellationEndsAWait() async throws {
        let clock = ManualClock()
        let script = Script([.fail(retryAfter: "30"), .done])
        let run = Task { try await loop(clock).run { script.next() } }
        _ = await clock.nextSleep()
        run.cancel()
        await #expect(throws: CancellationError.self) { try await run.value }
        #expect(script.attempts.current == 1 && clock.now.offset == .zero)
    }
}

/// How long something has lasted, read from the injected clock (a sync's outage): on a manual clock, exactly what
/// the test advanced.
@Suite struct ClockReadingTests {
    @Test func aReadingCountsWhatTheClockAdvanced() {
        let clock = ManualClock()
        let reading = ClockReading(clock)
        #expect(reading.seconds == 0)
        clock.advance(by: .milliseconds(1500))
        #expect(reading.seconds == 1.5)
    }
}
