import FileModel
import Foundation

/// When to try again and how long to wait first: the one classification and the one set of limits every retrying
/// loop (``RetryLoop``) of the client and the engines uses.
package struct RetryPolicy: Sendable {
    /// Attempts of one request that cannot resume, the first included (a listing, a creation, a `HEAD`).
    package var maxAttempts = 4
    /// Failures in a row without progress after which a resumable transfer (ranges, tus, a stream) gives up; any
    /// progress starts the count again, so a slow link that keeps moving never runs out.
    package var maxAttemptsWithoutProgress = 6
    /// Delay before the second attempt, before jitter.
    package var baseDelay = 0.5
    /// No delay is longer than this, `Retry-After` included.
    package var maxDelay = 30.0
    /// Statuses that mean "try again later": 408, 429, the 5xx that pass (not 501 or a full server's 507, which
    /// waiting cannot mend), and 423, a server still busy with an earlier request for the same upload.
    package var retryableStatuses: Set<Int> = [408, 423, 429, 500, 502, 503, 504]

    /// The defaults: 4 attempts of a request, 6 without progress for a transfer, 0.5 s doubling, at most 30 s.
    package init() {}

    /// No retries at all.
    package static var none: RetryPolicy {
        var policy = RetryPolicy()
        policy.maxAttempts = 1
        policy.maxAttemptsWithoutProgress = 1
        return policy
    }

    /// What an answer means for the next attempt: a status worth waiting for, with the server's `Retry-After`.
    package func verdict(for response: HTTPResponse) -> RetryVerdict {
        retryableStatuses.contains(response.status)
            ? .again(reason: "HTTP \(response.status)", retryAfter: response.headers["Retry-After"]) : .final
    }

    /// What a failure means for the next attempt: the network's fault (a reset, a timeout, nothing answered) is
    /// worth another; the request's or the peer's (a certificate, a refused redirect, a local file, a cancel) is not.
    package func verdict(for error: HTTPError) -> RetryVerdict {
        error.isRetryable ? .again(reason: error.reason, retryAfter: nil) : .final
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

/// What one attempt's outcome means for the next.
package enum RetryVerdict: Sendable, Equatable {
    /// The outcome stands: a success, or a failure waiting cannot mend.
    case final
    /// Worth another attempt after the backoff (`retryAfter`: the server's own wait).
    case again(reason: String, retryAfter: String?)
}
