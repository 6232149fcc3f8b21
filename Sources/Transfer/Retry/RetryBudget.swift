import FileModel
import Foundation
import HTTP

/// The one retry rule of every resumable engine (ranged and streamed downloads, tus files and streams): a failure
/// waits the policy's backoff (the server's `Retry-After` when it gives one), reports itself as a `retrying`
/// event, and counts against a budget of attempts in a row without progress; any progress refills the budget,
/// so a slow link that keeps moving never runs out, and a dead one gives up after a bounded time.
package struct RetryBudget: Sendable {
    /// Delays and which statuses mean "try again later".
    package let policy: RetryPolicy
    /// Failures in a row, without progress between them, after which the engine gives up.
    package let limit: Int
    /// Failures since the last progress.
    package private(set) var failures = 0

    /// A budget of `limit` attempts without progress under `policy`.
    package init(policy: RetryPolicy, limit: Int) {
        self.policy = policy
        self.limit = max(1, limit)
    }

    /// Progress was made: the count starts again.
    package mutating func progressed() { failures = 0 }

    /// Whether a status is one to try again after: the policy's (408, 429, 5xx but 501 and 507), and 423, a server
    /// still busy with an earlier request for the same upload. A full server (507) fails at once: waiting will not
    /// free its disk.
    package func isRetryable(status: Int) -> Bool {
        status == 423 || policy.retryableStatuses.contains(status)
    }

    /// Counts a failure and waits before the next attempt: the `retrying` event goes out for `part` first.
    /// When the budget is spent, `exhausted` is thrown instead of waiting.
    package mutating func backOff(
        reason: String, retryAfter: String? = nil, part: Int = 0, onEvent: (@Sendable (TransferEvent) -> Void)?,
        exhausted: (_ attempts: Int) -> any Error
    ) async throws {
        failures += 1
        guard failures < limit else { throw exhausted(failures) }
        let delay = policy.delay(afterAttempt: failures, retryAfter: retryAfter)
        onEvent?(.retrying(part: part, attempt: failures + 1, delay: delay, reason: reason))
        try await Task.sleep(nanoseconds: UInt64(delay * 1e9))
    }
}
