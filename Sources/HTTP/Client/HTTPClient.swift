import Foundation

/// Sends HTTP requests through the configuration's ``HTTPEngine`` with retries, redirect rules and redacted logging.
///
/// Retries happen only for idempotent requests, in the one ``RetryLoop`` under the configuration's ``RetryPolicy``
/// (network failures, 408/423/429/5xx answers, backoff with jitter, `Retry-After`); an engine that loops itself
/// sends each attempt with `retrying: false`, so no attempt of its loop hides a loop of the client's.
package struct HTTPClient: Sendable {
    /// Settings for every request.
    package var configuration: HTTPClientConfiguration

    /// Creates a client.
    package init(configuration: HTTPClientConfiguration = HTTPClientConfiguration()) {
        self.configuration = configuration
    }

    /// The engine's version line (`libcurl/8.5.0 OpenSSL/3.0.13 …`).
    package var engineVersion: String { configuration.engine.versionDescription }

    /// Sends `request`, following redirects as its ``HTTPRequest/redirects`` policy allows; `onProgress` and
    /// `onRetry` are called from the transfer thread.
    ///
    /// Every hop is checked before it is taken: http(s) only, at most ``HTTPClientConfiguration/maxRedirects``,
    /// the same origin unless the policy is ``RedirectPolicy/anyOrigin``, and the credential never goes to an
    /// origin other than its own (a hop there goes without it; a request there fails before any connection).
    /// With `retrying: false` the request is tried once whatever it is (its caller's own loop retries it).
    package func send(
        _ request: HTTPRequest, retrying: Bool = true,
        onProgress: (@Sendable (TransferProgress) -> Void)? = nil,
        onRetry: (@Sendable (_ attempt: Int, _ delay: Double, _ reason: String) -> Void)? = nil
    ) async throws -> HTTPResponse {
        if configuration.offline {
            log("! offline: \(request.method) \(URLRedaction.redacted(request.url)) not sent")
            throw HTTPError.offline(request: "\(request.method) \(URLRedaction.redacted(request.url))")
        }
        if let credential = request.credential, URLOrigin(url: request.url) != credential.origin {
            throw HTTPError.credentialScope(
                request: "\(request.method) \(URLRedaction.redacted(request.url))",
                origin: credential.origin.description)
        }
        guard let renewal = configuration.credentialRenewal, let credential = request.credential else {
            return try await sendFollowingRedirects(
                request, retrying: retrying, onProgress: onProgress, onRetry: onRetry)
        }
        var current = request
        current.credential = renewal.current(for: credential)
        let response = try await sendFollowingRedirects(
            current, retrying: retrying, onProgress: onProgress, onRetry: onRetry)
        guard response.status == 401, let rejected = current.credential,
            let renewed = try await renewal.renew(rejected: rejected)
        else {
            return response
        }
        log(
            "! the server refused the token: signed in again; \(request.method) \(URLRedaction.redacted(request.url)) once more"
        )
        current.credential = renewed
        return try await sendFollowingRedirects(current, retrying: retrying, onProgress: onProgress, onRetry: onRetry)
    }

    private func sendFollowingRedirects(
        _ request: HTTPRequest, retrying: Bool,
        onProgress: (@Sendable (TransferProgress) -> Void)?,
        onRetry: (@Sendable (_ attempt: Int, _ delay: Double, _ reason: String) -> Void)?
    ) async throws -> HTTPResponse {
        var current = request
        var hops = 0
        while true {
            let response = try await sendFollowingNothing(
                current, retrying: retrying, onProgress: onProgress, onRetry: onRetry)
            guard current.redirects != .never, [301, 302, 303, 307, 308].contains(response.status),
                let location = response.headers["Location"]
            else { return response }
            let label = "\(current.method) \(URLRedaction.redacted(current.url))"
            guard let next = URL(string: location, relativeTo: URL(string: current.url))?.absoluteString,
                let nextOrigin = URLOrigin(url: next)
            else { throw HTTPError.redirectRefused(request: label, location: String(location.prefix(200))) }
            if current.redirects == .sameOrigin, nextOrigin != URLOrigin(url: current.url) {
                log("! refused redirect (\(response.status)) to \(URLRedaction.redacted(next)): another origin")
                throw HTTPError.redirectRefused(request: label, location: URLRedaction.redacted(next))
            }
            hops += 1
            guard hops <= configuration.maxRedirects else {
                throw HTTPError.tooManyRedirects(request: label, limit: configuration.maxRedirects)
            }
            log("> redirected (\(response.status)) to \(URLRedaction.redacted(next))")
            // 303, and 301/302 after a POST, turn into a GET without body, as browsers and curl do.
            if response.status == 303 || ([301, 302].contains(response.status) && current.method == "POST") {
                current.method = current.method == "HEAD" ? "HEAD" : "GET"
                current.body = .empty
            }
            if let credential = current.credential, nextOrigin != credential.origin { current.credential = nil }
            current.url = next
        }
    }

    private func sendFollowingNothing(
        _ request: HTTPRequest, retrying: Bool,
        onProgress: (@Sendable (TransferProgress) -> Void)?,
        onRetry: (@Sendable (_ attempt: Int, _ delay: Double, _ reason: String) -> Void)?
    ) async throws -> HTTPResponse {
        let policy = request.isIdempotent && retrying ? configuration.retry : .none
        let label = "\(request.method) \(URLRedaction.redacted(request.url))"
        let loop = RetryLoop(request: policy, clock: configuration.clock) { attempt, delay, reason in
            log(
                "! retrying in \(DurationText.seconds(delay)) after \(reason) (attempt \(attempt) of \(policy.maxAttempts))"
            )
            onRetry?(attempt, delay, reason)
        }
        do {
            return try await loop.run { () async throws -> RetryStep<HTTPResponse> in
                log("> \(label)")
                if request.credential != nil { log("> Authorization: Bearer [REDACTED]") }
                var attemptRequest = request
                if request.credential == nil, let signer = configuration.signer,
                    URLOrigin(url: request.url) == signer.origin
                {
                    for (name, value) in signer.signatureHeaders(
                        method: request.method, url: request.url, headers: request.headers, body: request.body)
                    {
                        attemptRequest.headers.add(name, value)
                    }
                    log("> Authorization: signed [REDACTED]")
                }
                let started = Date()
                do {
                    var answer: HTTPResponse?
                    let elapsed = try await configuration.clock.measure {
                        answer = try await configuration.engine.perform(
                            attemptRequest, configuration: configuration, onProgress: onProgress)
                    }
                    guard var response = answer else { throw HTTPError.cancelled(request: label) }
                    // Only a request without a body times the round trip: a body's own sending is not one.
                    let bodiless: Bool
                    if case .empty = attemptRequest.body { bodiless = true } else { bodiless = false }
                    let answered = Int64(response.body.count) + response.bytesWritten
                    configuration.linkMeter.record(
                        status: response.status, elapsed: elapsed, roundTrip: bodiless,
                        small: !attemptRequest.isBulk && answered <= LinkMeter.smallExchangeBytes)
                    response.attempts = loop.attempt
                    log(
                        "< \(response.status) \(label) "
                            + "(\(response.body.count + Int(response.bytesWritten)) bytes, \(DurationText.seconds(Date().timeIntervalSince(started))))"
                    )
                    return .after(policy.verdict(for: response)) { _ in response } ?? .done(response)
                } catch let error as HTTPError {
                    guard
                        let step = RetryStep<HTTPResponse>.after(
                            policy.verdict(for: error), otherwise: { _ in throw error })
                    else { throw error }
                    log("! \(error)")
                    return step
                }
            }
        } catch is CancellationError {
            throw HTTPError.cancelled(request: label)
        }
    }

    /// The same transfer as an event stream: progress and retries while it runs, then the response.
    /// Ending iteration early (or cancelling the consuming task) cancels the transfer.
    package func events(for request: HTTPRequest) -> AsyncThrowingStream<HTTPEvent, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let response = try await send(
                        request, onProgress: { continuation.yield(.progress($0)) },
                        onRetry: { continuation.yield(.retrying(attempt: $0, delay: $1, reason: $2)) })
                    continuation.yield(.completed(response))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private func log(_ line: String) { configuration.log?(line) }
}

/// Short elapsed-time text for log lines.
enum DurationText {
    static func seconds(_ value: Double) -> String { "\(Int((value * 1000).rounded())) ms" }
}
