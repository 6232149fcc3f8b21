/// Gets a bearer credential again when its server stops accepting it (an expired token), so that a long
/// unattended run goes on. ``HTTPClient`` asks it for every request that carries a credential: before sending
/// (``current(for:)``: a credential already renewed is not sent again) and after a 401 (``renew(rejected:)``),
/// then sends the request once more with what it got; a second 401 is the answer.
package protocol CredentialRenewal: Sendable {
    /// The credential to send instead of `credential`: the one that replaced it, or `credential` itself.
    func current(for credential: BearerCredential) -> BearerCredential
    /// A credential to use instead of `rejected`, or nil when there is none (no way to sign in again, or it
    /// failed: ``problem`` says why). Throws only a transport failure of signing in, which a caller handles as
    /// any network failure.
    func renew(rejected: BearerCredential) async throws(HTTPError) -> BearerCredential?
    /// Why the last renewal failed, in the user's terms (a wrong remembered password); nil when none did.
    var problem: String? { get }
}
