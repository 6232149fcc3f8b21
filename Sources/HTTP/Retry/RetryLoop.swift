import Foundation

/// The one retry loop of the client and of every engine (one request, ranged and streamed downloads, tus files and
/// streams, Officer's repeated writes): an attempt that fails in a way ``RetryPolicy/verdict(for:)`` calls worth
/// another waits the policy's backoff (the server's `Retry-After` when it gives one), is announced through
/// `onRetry`, and counts against a limit of failures in a row; progress starts the count again, so a slow link that
/// keeps moving never runs out and a dead one gives up after a bounded time.
///
/// A reference type so an attempt can report progress (``progressed()``) while ``run(_:)`` drives it; it belongs
/// to the one task that runs the loop. Its waits are on the clock it is given (the HTTP configuration's
/// ``HTTPClientConfiguration/clock``: the continuous clock in use, a manual one in tests).
package final class RetryLoop {
    /// Delays and what is worth another attempt.
    package let policy: RetryPolicy
    /// Failures in a row, without progress between them, after which the loop gives up.
    package let limit: Int
    /// Failures since the last progress.
    package private(set) var failures = 0
    private let onRetry: ((_ attempt: Int, _ delay: Double, _ reason: String) -> Void)?
    /// What the waits are on.
    private let clock: any Clock<Duration>

    /// A loop of at most `limit` failures in a row under `policy`, waiting on `clock`; `onRetry` hears of each
    /// wait before it starts, with the number of the attempt that follows.
    package init(
        policy: RetryPolicy, limit: Int, clock: any Clock<Duration> = ContinuousClock(),
        onRetry: ((_ attempt: Int, _ delay: Double, _ reason: String) -> Void)? = nil
    ) {
        self.policy = policy
        self.limit = max(1, limit)
        self.clock = clock
        self.onRetry = onRetry
    }

    /// The loop of one request that cannot resume: the policy's ``RetryPolicy/maxAttempts``.
    package convenience init(
        request policy: RetryPolicy, clock: any Clock<Duration>,
        onRetry: ((_ attempt: Int, _ delay: Double, _ reason: String) -> Void)? = nil
    ) {
        self.init(policy: policy, limit: policy.maxAttempts, clock: clock, onRetry: onRetry)
    }

    /// The loop of a resumable transfer: `limit` when its options set one, else the policy's
    /// ``RetryPolicy/maxAttemptsWithoutProgress``.
    package convenience init(
        transfer policy: RetryPolicy, limit: Int? = nil, clock: any Clock<Duration>,
        onRetry: ((_ attempt: Int, _ delay: Double, _ reason: String) -> Void)? = nil
    ) {
        self.init(policy: policy, limit: limit ?? policy.maxAttemptsWithoutProgress, clock: clock, onRetry: onRetry)
    }

    /// The number of the attempt under way (1 for the first).
    package var attempt: Int { failures + 1 }

    /// Progress was made: the count starts again.
    package func progressed() { failures = 0 }

    /// Runs `attempt` until it ends the loop: ``RetryStep/done(_:)`` returns its value, ``RetryStep/next`` goes on
    /// at once (progress, or a change of plan that needs no wait), ``RetryStep/again(reason:retryAfter:otherwise:)``
    /// waits and tries again, or, when no attempt is left, ends with what its `otherwise` returns or throws.
    /// Cancellation ends it between attempts and during a wait (`CancellationError`).
    package func run<Value>(_ attempt: () async throws -> RetryStep<Value>) async throws -> Value {
        while true {
            try Task.checkCancellation()
            switch try await attempt() {
            case .done(let value): return value
            case .next: continue
            case .again(let reason, let retryAfter, let otherwise):
                failures += 1
                guard failures < limit else { return try otherwise(failures) }
                try await wait(reason: reason, retryAfter: retryAfter)
            }
        }
    }

    /// Counts a failure and waits before going on within the same attempt (a tus conflict: the server's offset is
    /// asked after the wait); when no attempt is left, `exhausted` is thrown instead of waiting. `announced: false`
    /// keeps a wait the user need not hear of (the server catching up with a body it is still taking in) quiet.
    package func backOff(
        reason: String, retryAfter: String? = nil, announced: Bool = true, exhausted: (_ attempts: Int) -> any Error
    ) async throws {
        failures += 1
        guard failures < limit else { throw exhausted(failures) }
        try await wait(reason: reason, retryAfter: retryAfter, announced: announced)
    }

    private func wait(reason: String, retryAfter: String?, announced: Bool = true) async throws {
        let delay = policy.delay(afterAttempt: failures, retryAfter: retryAfter)
        if announced { onRetry?(failures + 1, delay, reason) }
        try await clock.sleep(for: .seconds(delay))
    }
}

/// How one attempt of a ``RetryLoop`` ended.
package enum RetryStep<Value> {
    /// Finished: the loop returns this.
    case done(Value)
    /// Progress was made, or the plan changed without cause to wait: the next attempt at once.
    case next
    /// Worth another attempt after the backoff; when none is left, the loop ends with `otherwise` (given the
    /// attempts made): the last answer as it is, or the error it throws.
    case again(reason: String, retryAfter: String? = nil, otherwise: (_ attempts: Int) throws -> Value)

    /// The step a verdict asks for, ending with `otherwise` when no attempt is left; nil when the verdict is final.
    package static func after(_ verdict: RetryVerdict, otherwise: @escaping (_ attempts: Int) throws -> Value)
        -> RetryStep?
    {
        guard case .again(let reason, let retryAfter) = verdict else { return nil }
        return .again(reason: reason, retryAfter: retryAfter, otherwise: otherwise)
    }
}
