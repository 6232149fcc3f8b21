import Foundation

/// Where the front door keeps the token of the server it talks to: a keychain in an app, the config file in the
/// CLI, memory in a test.
public protocol TokenStore: Sendable {
    /// The token saved for `server`, if any.
    func token(for server: String) -> String?
    /// Saves `token` for `server`, replacing any other.
    func save(_ token: String, for server: String) throws
    /// Forgets the token of `server`.
    func remove(for server: String) throws
    /// How an unattended run may sign in to `server` again when the server stops accepting its token (it
    /// expired): nil when it may not (the default), so the token's end is the session's. Asked only then, so a
    /// password kept in a file is read at that moment; throws when it cannot be read safely.
    func storedSignIn(for server: String) throws -> StoredSignIn?
}

extension TokenStore {
    /// None: a store that keeps no password lets no run sign in again by itself.
    public func storedSignIn(for server: String) throws -> StoredSignIn? { nil }
}

/// The email and password a run signs in again with. Its description never shows the password.
public struct StoredSignIn: Sendable, Equatable, CustomStringConvertible {
    /// The account's email.
    public var email: String
    /// Its password.
    public var password: String

    /// Both parts.
    public init(email: String, password: String) {
        self.email = email
        self.password = password
    }

    /// `EMAIL (password not shown)`.
    public var description: String { "\(email) (password not shown)" }
}

/// A ``TokenStore`` in memory: gone with the process.
public final class MemoryTokenStore: TokenStore, Sendable {
    private struct Kept {
        var tokens: [String: String] = [:]
        var signIns: [String: StoredSignIn] = [:]
    }
    private let kept: LockedValue<Kept>

    /// A store holding `token` for `server` (when both are given), and a way to sign in again when `signIn` is.
    public init(server: String? = nil, token: String? = nil, signIn: StoredSignIn? = nil) {
        var kept = Kept()
        if let server, let token { kept.tokens[server] = token }
        if let server, let signIn { kept.signIns[server] = signIn }
        self.kept = LockedValue(kept)
    }

    /// The token saved for `server`, if any.
    public func token(for server: String) -> String? { kept.withLock { $0.tokens[server] } }
    /// Saves `token` for `server`.
    public func save(_ token: String, for server: String) { kept.withLock { $0.tokens[server] = token } }
    /// Forgets the token of `server`, and how to sign in there again.
    public func remove(for server: String) {
        kept.withLock {
            _ = $0.tokens.removeValue(forKey: server)
            _ = $0.signIns.removeValue(forKey: server)
        }
    }
    /// The sign-in it was given for `server`, if any.
    public func storedSignIn(for server: String) -> StoredSignIn? { kept.withLock { $0.signIns[server] } }
}
