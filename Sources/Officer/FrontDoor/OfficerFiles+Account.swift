import FileModel
import Foundation
import HTTP

/// What signing out did.
public struct SignOutOutcome: Sendable {
    /// A token was held (and is now forgotten).
    public var wasSignedIn: Bool
    /// Why the server did not revoke it, when it did not (it could not be reached, offline); nil when it did, or
    /// there was nothing to revoke.
    public var problem: OfficerFilesError?
}

extension OfficerFiles {
    /// Signs in and saves the token in the token store (only a token that is one safe line is ever kept); the
    /// user signed in. The token itself stays with the store: an app never handles it.
    @discardableResult
    public func signIn(email: String, password: String) async throws(OfficerFilesError) -> UserInfo {
        try await reporting(nil) {
            let response = try await client.signIn(email: email, password: password)
            try configuration.tokens.save(response.token, for: try server.baseURL())
            return response.user
        }
    }

    /// Revokes the token on the server (`POST /api/auth/signout`) and forgets it here. The token is forgotten even
    /// when revoking fails (an unreachable server, offline); the outcome says whether the server revoked it and,
    /// if not, why. Fails only when the token store cannot forget it, or there is no server.
    @discardableResult
    public func signOut() async throws(OfficerFilesError) -> SignOutOutcome {
        try await reporting(nil) {
            let server = try server.baseURL()
            guard configuration.tokens.token(for: server) != nil else {
                return SignOutOutcome(wasSignedIn: false, problem: nil)
            }
            var outcome = SignOutOutcome(wasSignedIn: true, problem: nil)
            if isOffline {
                outcome.problem = report(OfficerError.transport(.offline(request: "sign out")))
            } else {
                let client = try client
                do {
                    try await client.signOut()
                } catch {
                    // A token the server no longer accepts is as good as revoked.
                    if case OfficerError.notSignedIn = error {} else { outcome.problem = report(error) }
                }
            }
            try configuration.tokens.remove(for: server)
            return outcome
        }
    }

    /// Who the token belongs to.
    public func whoAmI() async throws(OfficerFilesError) -> UserInfo {
        try await reporting(nil) { try await client.me() }
    }
}
