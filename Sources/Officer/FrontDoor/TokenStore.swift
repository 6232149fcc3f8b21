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
}

/// A ``TokenStore`` in memory: gone with the process.
public final class MemoryTokenStore: TokenStore, @unchecked Sendable {
    private let lock = NSLock()
    private var tokens: [String: String]

    /// A store holding `token` for `server` (when both are given).
    public init(server: String? = nil, token: String? = nil) {
        tokens = [:]
        if let server, let token { tokens[server] = token }
    }

    /// The token saved for `server`, if any.
    public func token(for server: String) -> String? { lock.withLock { tokens[server] } }
    /// Saves `token` for `server`.
    public func save(_ token: String, for server: String) { lock.withLock { tokens[server] = token } }
    /// Forgets the token of `server`.
    public func remove(for server: String) { lock.withLock { _ = tokens.removeValue(forKey: server) } }
}
