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
    package func storedSignIn(for server: String) throws -> StoredSignIn? { nil }
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
public final class MemoryTokenStore: TokenStore, @unchecked Sendable {
    private let lock = NSLock()
    private var tokens: [String: String]
    private var signIns: [String: StoredSignIn] = [:]

    /// A store holding `token` for `server` (when both are given), and a way to sign in again when `signIn` is.
    public init(server: String? = nil, token: String? = nil, signIn: StoredSignIn? = nil) {
        tokens = [:]
        if let server, let token { tokens[server] = token }
        if let server, let signIn { signIns[server] = signIn }
    }

    /// The token saved for `server`, if any.
    public func token(for server: String) -> String? { lock.withLock { tokens[server] } }
    /// Saves `token` for `server`.
    public func save(_ token: String, for server: String) { lock.withLock { tokens[server] = token } }
    /// Forgets the token of `server`, and how to sign in there again.
    public func remove(for server: String) {
        lock.withLock {
            _ = tokens.removeValue(forKey: server)
            _ = signIns.removeValue(forKey: server)
        }
    }
    /// The sign-in it was given for `server`, if any.
    public func storedSignIn(for server: String) -> StoredSignIn? { lock.withLock { signIns[server] } }
}
