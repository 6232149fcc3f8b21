import FileModel
import Foundation
import HTTP

/// The front door's ``CredentialRenewal``: when the server refuses the token, signs in once with what the
/// ``TokenStore`` keeps for that (``TokenStore/storedSignIn(for:)``) and saves the new token there, so every
/// operation, and every request of one already under way, goes on with it. Requests refused together share
/// the one sign-in; a token another process saved meanwhile is taken without one; a sign-in that failed is not
/// tried again for the same token (a wrong password is not sent on every request).
final class SessionRenewal: CredentialRenewal, Sendable {
    private let server: String
    private let tokens: any TokenStore
    /// Signs in without a token, so without renewal.
    private let http: HTTPClient
    private struct Renewals {
        /// Tokens the server refused, each with the credential that replaced it.
        var replacements: [String: BearerCredential] = [:]
        var failed: Set<String> = []
        /// The one sign-in under way, which every request refused with that token awaits.
        var inFlight: (token: String, task: Task<Result<BearerCredential?, HTTPError>, Never>)?
        var lastProblem: String?
    }
    private let renewals = LockedValue(Renewals())

    init(server: String, tokens: any TokenStore, http: HTTPClient) {
        self.server = server
        self.tokens = tokens
        self.http = http
    }

    var problem: String? { renewals.withLock { $0.lastProblem } }

    func current(for credential: BearerCredential) -> BearerCredential {
        renewals.withLock { renewals in
            var current = credential
            for _ in 0..<renewals.replacements.count {
                guard let newer = renewals.replacements[current.token], newer.origin == credential.origin else {
                    break
                }
                current = newer
            }
            return current
        }
    }

    func renew(rejected: BearerCredential) async throws(HTTPError) -> BearerCredential? {
        guard rejected.origin == URLOrigin(url: server) else { return nil }
        let task: Task<Result<BearerCredential?, HTTPError>, Never>? = renewals.withLock { renewals in
            if renewals.replacements[rejected.token] != nil || renewals.failed.contains(rejected.token) { return nil }
            if let inFlight = renewals.inFlight, inFlight.token == rejected.token { return inFlight.task }
            let task = Task { await self.signIn(replacing: rejected) }
            renewals.inFlight = (rejected.token, task)
            return task
        }
        guard let task else { return renewals.withLock { $0.replacements[rejected.token] } }
        return try await task.value.get()
    }

    private func signIn(replacing rejected: BearerCredential) async -> Result<BearerCredential?, HTTPError> {
        let outcome: Result<BearerCredential?, HTTPError>
        do {
            outcome = .success(try await newCredential(replacing: rejected))
        } catch OfficerError.transport(let error, _) {
            outcome = .failure(error)
        } catch {
            fail(rejected, because: "\(error)")
            outcome = .success(nil)
        }
        renewals.withLock { renewals in
            if case .success(let credential?) = outcome {
                renewals.replacements[rejected.token] = credential
                renewals.lastProblem = nil
            }
            renewals.inFlight = nil
        }
        return outcome
    }

    private func newCredential(replacing rejected: BearerCredential) async throws -> BearerCredential? {
        // Another process (a `login`, another watcher) may have saved a newer token already.
        if let saved = tokens.token(for: server), saved != rejected.token,
            let credential = try? BearerCredential(token: saved, issuedBy: server)
        {
            return credential
        }
        guard let stored = try tokens.storedSignIn(for: server) else { return nil }
        let response = try await OfficerClient(server: server, http: http).signIn(
            email: stored.email, password: stored.password)
        try tokens.save(response.token, for: server)
        http.configuration.log?("> signed in again as \(stored.email): the server no longer accepted the token")
        return try BearerCredential(token: response.token, issuedBy: server)
    }

    private func fail(_ rejected: BearerCredential, because reason: String) {
        renewals.withLock { renewals in
            renewals.failed.insert(rejected.token)
            renewals.lastProblem = reason
        }
    }
}
