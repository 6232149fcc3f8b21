import Officer

/// The config file as the front door's token store: one server, its token and the email used to sign in (for
/// the "log in again" hint). A token is handed out only for the server saved beside it.
struct ConfigTokenStore: TokenStore {
    let store: ConfigStore
    /// Saved with the token on sign-in.
    var email: String?

    func token(for server: String) -> String? {
        guard let config = try? store.load(), config.server.map(Self.normalized) == Self.normalized(server) else { return nil }
        return config.token
    }

    func save(_ token: String, for server: String) throws {
        var config = try store.load()
        config.server = server
        if let email { config.email = email }
        config.token = token
        try store.save(config)
    }

    func remove(for server: String) throws {
        var config = try store.load()
        guard config.server.map(Self.normalized) == Self.normalized(server), config.token != nil else { return }
        config.token = nil
        try store.save(config)
    }

    /// Server URLs compare without case and trailing slashes.
    static func normalized(_ url: String) -> String {
        var url = url.lowercased()
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }
}
