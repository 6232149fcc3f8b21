import FileModel
import Foundation

/// Exponential backoff with full jitter for idempotent requests, honouring `Retry-After`.
package struct RetryPolicy: Sendable {
    /// Attempts in all, the first included.
    package var maxAttempts = 4
    /// Delay before the second attempt, before jitter.
    package var baseDelay = 0.5
    /// No delay is longer than this, `Retry-After` included.
    package var maxDelay = 30.0
    /// Statuses that mean "try again later".
    package var retryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504]

    /// The defaults: 4 attempts, 0.5 s doubling, at most 30 s.
    package init() {}

    /// No retries at all.
    package static var none: RetryPolicy {
        var policy = RetryPolicy()
        policy.maxAttempts = 1
        return policy
    }

    /// The delay before attempt `attempt + 1` (attempt counts from 1), given the server's `Retry-After` if any.
    package func delay(afterAttempt attempt: Int, retryAfter: String?, now: Date = Date()) -> Double {
        if let retryAfter, let seconds = Self.parseRetryAfter(retryAfter, now: now) {
            return min(max(seconds, 0), maxDelay)
        }
        let ceiling = min(maxDelay, baseDelay * pow(2, Double(attempt - 1)))
        // Full jitter: clients that failed together do not come back together.
        return Double.random(in: ceiling / 2...ceiling)
    }

    /// `Retry-After` as seconds: either delta-seconds or an HTTP date.
    package static func parseRetryAfter(_ value: String, now: Date = Date()) -> Double? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(trimmed) { return seconds }
        return HTTPDate.parse(trimmed).map { $0 - now.timeIntervalSince1970 }
    }
}
