import Foundation
import TestSupport
import Testing

@testable import HTTP
@testable import Transfer

/// The one retry loop of the client and every engine: how long it waits, what it reports, when it gives up, and
/// the one classification of what is worth another attempt.
@Suite struct RetryLoopTests {
    struct Spent: Error, Equatable { var attempts: Int }

    func fastPolicy() -> RetryPolicy {
        var policy = RetryPolicy()
        policy.baseDelay = 0.001
        policy.maxDelay = 0.01
        return policy
    }

    @Test func givesUpAfterTheLimitWithoutProgressAndReportsEachWait() async throws {
        let waits = EventLog()
        let loop = RetryLoop(policy: fastPolicy(), limit: 4) { attempt, delay, reason in
            waits.add(.retrying(part: 2, attempt: attempt, delay: delay, reason: reason))
        }
        var tries = 0
        await #expect(throws: Spent(attempts: 4)) {
            try await loop.run { () async throws -> RetryStep<Void> in
                tries += 1
                return .again(reason: "HTTP 503") { throw Spent(attempts: $0) }
            }
        }
        #expect(tries == 4)
        let attempts = waits.all.compactMap { event -> Int? in
            if case .retrying(2, let attempt, _, "HTTP 503") = event { return attempt }
            return nil
        }
        #expect(attempts == [2, 3, 4], "each wait announced with the attempt that follows")
    }

    @Test func progressRefillsTheLimitAndTheLastAnswerCanStand() async throws {
        let loop = RetryLoop(policy: fastPolicy(), limit: 2)
        var tries = 0
        let value = try await loop.run { () async throws -> RetryStep<Int> in
            tries += 1
            if tries < 10 {
                loop.progressed()
                return .again(reason: "reset") { _ in -1 }
            }
            return .done(tries)
        }
        #expect(value == 10, "a slow link that keeps moving never runs out")
        let spent = try await RetryLoop(policy: fastPolicy(), limit: 3).run { () async throws -> RetryStep<String> in
            .again(reason: "HTTP 503") { "the last answer after \($0) attempts" }
        }
        #expect(spent == "the last answer after 3 attempts")
    }

    @Test func honoursRetryAfter() async throws {
        var policy = fastPolicy()
        policy.maxDelay = 5
        let waits = EventLog()
        let loop = RetryLoop(policy: policy, limit: 3) { attempt, delay, reason in
            waits.add(.retrying(part: 0, attempt: attempt, delay: delay, reason: reason))
        }
        let started = ContinuousClock.now
        var tries = 0
        try await loop.run { () async throws -> RetryStep<Void> in
            tries += 1
            return tries == 1 ? .again(reason: "HTTP 429", retryAfter: "1") { _ in } : .done(())
        }
        #expect(started.duration(to: .now) >= .milliseconds(950))
        if case .retrying(_, _, let delay, _)? = waits.all.first {
            #expect(delay == 1)
        } else {
            Issue.record("no retrying event")
        }
    }

    /// One classification for every loop: 423 is worth waiting for everywhere (it was in one engine only), a full
    /// server or a refusal is not, and neither is a failure of the peer's certificate.
    @Test func oneClassificationOfWhatIsWorthAnotherAttempt() {
        let policy = RetryPolicy()
        func verdict(_ status: Int) -> RetryVerdict {
            policy.verdict(
                for: HTTPResponse(
                    status: status, headers: HTTPHeaders(), body: Data(), bytesWritten: 0, effectiveURL: "", attempts: 1
                ))
        }
        for status in [408, 423, 429, 500, 502, 503, 504] {
            #expect(verdict(status) != .final, "\(status)")
        }
        for status in [200, 400, 401, 403, 404, 409, 501, 507] {
            #expect(verdict(status) == .final, "\(status)")
        }
        let reset = HTTPError.transport(request: "GET /x", code: TransportCode.receiveError, message: "reset")
        let certificate = HTTPError.transport(request: "GET /x", code: 60, message: "SSL certificate problem")
        #expect(policy.verdict(for: reset) != .final)
        #expect(policy.verdict(for: certificate) == .final)
        #expect(policy.verdict(for: .cancelled(request: "GET /x")) == .final)
    }
}

/// The engines' requests go through the one loop once: no loop of the client's inside an engine's.
@Suite struct RetryNestingTests {
    func uploader() -> TusUploader {
        var configuration = HTTPClientConfiguration()
        configuration.retry.baseDelay = 0.001
        configuration.retry.maxDelay = 0.01
        return TusUploader(http: TestEngine.curl.client(configuration), journal: nil)
    }

    @Test func aBusyServersOffsetIsAskedARequestsAttemptsNotThirtyTwo() async throws {
        let probe = try await startRedirectProbe()
        await #expect(throws: UploadError.self) { _ = try await uploader().head(probe.url + "/busy", token: nil) }
        let count = try await HTTPClient.curl.send(HTTPRequest(url: probe.url + "/count"))
        // Before: eight attempts of its own, each retried four times by the client inside.
        #expect(String(decoding: count.body, as: UTF8.self) == "\(RetryPolicy().maxAttempts)")
    }

    @Test func aTLSFailureIsNotTriedAgain() async throws {
        let probe = try await startRedirectProbe()
        // TLS to a plain-HTTP server: the handshake fails, which waiting cannot mend.
        let url = probe.url.replacingOccurrences(of: "http://", with: "https://") + "/busy"
        do {
            _ = try await uploader().head(url, token: nil)
            Issue.record("a HEAD over a failed handshake succeeded")
        } catch UploadError.transfer(let error) {
            if case .gaveUp = error { Issue.record("retried a TLS failure: \(error)") }
            #expect(policyVerdictIsFinal(error), "\(error)")
        }
        let count = try await HTTPClient.curl.send(HTTPRequest(url: probe.url + "/count"))
        #expect(String(decoding: count.body, as: UTF8.self) == "0")
    }

    func policyVerdictIsFinal(_ error: HTTPError) -> Bool { RetryPolicy().verdict(for: error) == .final }
}
