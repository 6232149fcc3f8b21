import Foundation
import HTTP
import Testing

@testable import Transfer

/// The one retry rule of the resumable engines: how long it waits, what it reports, when it gives up.
@Suite struct RetryBudgetTests {
    struct Spent: Error, Equatable { var attempts: Int }

    func fastPolicy() -> RetryPolicy {
        var policy = RetryPolicy()
        policy.baseDelay = 0.001
        policy.maxDelay = 0.01
        return policy
    }

    @Test func givesUpAfterTheLimitWithoutProgressAndReportsEachWait() async throws {
        var budget = RetryBudget(policy: fastPolicy(), limit: 4)
        let events = EventLog()
        for _ in 0..<3 {
            try await budget.backOff(reason: "HTTP 503", part: 2, onEvent: { events.add($0) }) { Spent(attempts: $0) }
        }
        await #expect(throws: Spent(attempts: 4)) {
            try await budget.backOff(reason: "HTTP 503", onEvent: { events.add($0) }) { Spent(attempts: $0) }
        }
        let attempts = events.all.compactMap { event -> Int? in
            if case .retrying(2, let attempt, _, "HTTP 503") = event { return attempt }
            return nil
        }
        #expect(attempts == [2, 3, 4], "each wait announced with the attempt that follows, for its part")
    }

    @Test func progressRefillsTheBudget() async throws {
        var budget = RetryBudget(policy: fastPolicy(), limit: 2)
        for _ in 0..<10 {
            try await budget.backOff(reason: "reset", onEvent: nil) { Spent(attempts: $0) }
            budget.progressed()
        }
        #expect(budget.failures == 0, "a slow link that keeps moving never runs out")
    }

    @Test func honoursRetryAfterAndKnowsWhatIsWorthRetrying() async throws {
        var policy = fastPolicy()
        policy.maxDelay = 5
        var budget = RetryBudget(policy: policy, limit: 3)
        let events = EventLog()
        let started = ContinuousClock.now
        try await budget.backOff(reason: "HTTP 429", retryAfter: "1", onEvent: { events.add($0) }) {
            Spent(attempts: $0)
        }
        #expect(started.duration(to: .now) >= .milliseconds(950))
        if case .retrying(_, _, let delay, _)? = events.all.first {
            #expect(delay == 1)
        } else {
            Issue.record("no retrying event")
        }
        #expect(budget.isRetryable(status: 503) && budget.isRetryable(status: 423) && budget.isRetryable(status: 429))
        #expect(!budget.isRetryable(status: 507), "a full server is not waited for")
        #expect(!budget.isRetryable(status: 404) && !budget.isRetryable(status: 409))
    }
}
