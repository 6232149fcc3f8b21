import Officer

/// The config file as the front door's token store: one server, its token and the email used to sign in (for
/// the "log in again" hint), and what `login --remember` keeps for signing in again. A token is handed out only
/// for the server saved beside it.
struct ConfigTokenStore: TokenStore {
    /// What a sign-in keeps for signing in again unattended.
    enum Remembered: Equatable {
        /// Nothing (a `login` without `--remember` forgets what an earlier one kept).
        case nothing
        /// The password itself, in the 0600 config.
        case password(String)
        /// The path of a 0600 file holding it.
        case file(String)
    }

    let store: ConfigStore
    /// Saved with the token on sign-in.
    var email: String?
    /// Saved with the token on a `login`; nil keeps what the config has (a token renewed by a run).
    var remember: Remembered?
    /// `OFFICER_PASSWORD_FILE`: a password file named by the environment, taken before what the config keeps.
    var environmentPasswordFile: String?

    func token(for server: String) -> String? {
        guard let config = try? store.load(), config.server.map(Self.normalized) == Self.normalized(server) else { return nil }
        return config.token
    }

    func save(_ token: String, for server: String) throws {
        var config = try store.load()
        config.server = server
        if let email { config.email = email }
        config.token = token
        switch remember {
        case nil: break
        case .nothing?: (config.password, config.passwordFile) = (nil, nil)
        case .password(let password)?: (config.password, config.passwordFile) = (password, nil)
        case .file(let path)?: (config.password, config.passwordFile) = (nil, path)
        }
        try store.save(config)
    }

    /// Forgets the token and any way to sign in again.
    func remove(for server: String) throws {
        var config = try store.load()
        guard config.server.map(Self.normalized) == Self.normalized(server),
            config.token != nil || config.password != nil || config.passwordFile != nil
        else { return }
        (config.token, config.password, config.passwordFile) = (nil, nil, nil)
        try store.save(config)
    }

    /// The saved email with the password from `OFFICER_PASSWORD_FILE`, the remembered file or the config.
    func storedSignIn(for server: String) throws -> StoredSignIn? {
        let config = try store.load()
        guard config.server.map(Self.normalized) == Self.normalized(server), let email = config.email else { return nil }
        if let file = environmentPasswordFile ?? config.passwordFile { return StoredSignIn(email: email, password: try PasswordFile.read(file)) }
        return config.password.map { StoredSignIn(email: email, password: $0) }
    }

    /// Server URLs compare without case and trailing slashes.
    static func normalized(_ url: String) -> String {
        var url = url.lowercased()
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }
}
