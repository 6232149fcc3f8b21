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

    /// The named Officer remote whose server this is, when it is not the default server.
    private func profileName(for server: String, in config: OfficerConfig) -> String? {
        if config.server.map(Self.normalized) == Self.normalized(server) { return nil }
        return config.officers?.first { Self.normalized($0.value.server) == Self.normalized(server) }?.key
    }

    func token(for server: String) -> String? {
        guard let config = try? store.load() else { return nil }
        if let name = profileName(for: server, in: config) { return config.officers?[name]?.token }
        return config.server.map(Self.normalized) == Self.normalized(server) ? config.token : nil
    }

    func save(_ token: String, for server: String) throws {
        var config = try store.load()
        if let name = profileName(for: server, in: config), var profile = config.officers?[name] {
            if let email { profile.email = email }
            profile.token = token
            (profile.password, profile.passwordFile) = remembered(keeping: (profile.password, profile.passwordFile))
            config.officers?[name] = profile
        } else {
            config.server = server
            if let email { config.email = email }
            config.token = token
            (config.password, config.passwordFile) = remembered(keeping: (config.password, config.passwordFile))
        }
        try store.save(config)
    }

    /// What a sign-in keeps for signing in again: as asked, or what was kept before.
    private func remembered(keeping kept: (String?, String?)) -> (String?, String?) {
        switch remember {
        case nil: kept
        case .nothing?: (nil, nil)
        case .password(let password)?: (password, nil)
        case .file(let path)?: (nil, path)
        }
    }

    /// Forgets the token and any way to sign in again.
    func remove(for server: String) throws {
        var config = try store.load()
        if let name = profileName(for: server, in: config), var profile = config.officers?[name] {
            guard profile.token != nil || profile.password != nil || profile.passwordFile != nil else { return }
            (profile.token, profile.password, profile.passwordFile) = (nil, nil, nil)
            config.officers?[name] = profile
            try store.save(config)
            return
        }
        guard config.server.map(Self.normalized) == Self.normalized(server),
            config.token != nil || config.password != nil || config.passwordFile != nil
        else { return }
        (config.token, config.password, config.passwordFile) = (nil, nil, nil)
        try store.save(config)
    }

    /// The saved email with the password from `OFFICER_PASSWORD_FILE`, the remembered file or the config.
    func storedSignIn(for server: String) throws -> StoredSignIn? {
        let config = try store.load()
        let kept: (email: String?, password: String?, file: String?)
        if let name = profileName(for: server, in: config), let profile = config.officers?[name] {
            kept = (profile.email, profile.password, profile.passwordFile)
        } else if config.server.map(Self.normalized) == Self.normalized(server) {
            kept = (config.email, config.password, config.passwordFile)
        } else {
            return nil
        }
        guard let email = kept.email else { return nil }
        if let file = environmentPasswordFile ?? kept.file {
            return StoredSignIn(email: email, password: try PasswordFile.read(file))
        }
        return kept.password.map { StoredSignIn(email: email, password: $0) }
    }

    /// Server URLs compare without case and trailing slashes.
    static func normalized(_ url: String) -> String {
        var url = url.lowercased()
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }
}
