import Officer

/// What `officer-files login` remembers: the server, who signed in, and the token.
public struct OfficerConfig: Codable, Sendable, Equatable {
    /// Base URL of the Officer server.
    public var server: String?
    /// Email used to sign in.
    public var email: String?
    /// The JWT; the file holding it is kept at mode 0600.
    public var token: String?
    /// Root used when a path names none.
    public var root: String?
    /// Object-store remotes by name (`remote add`), secrets included: the file is 0600.
    public var remotes: [String: ObjectStoreRemote]?
    /// The password an unattended run signs in again with when the token expires (`login --remember`).
    public var password: String?
    /// A file holding that password instead, read each time (`login --remember --password-file`).
    public var passwordFile: String?
    /// The CA certificate file (PEM) each server's certificate is checked against, by server URL: what `login
    /// --cacert FILE` was given, so later commands trust the same server without the option.
    public var certificates: [String: String]?
    /// Other Officer servers by name (`remote add NAME --officer URL`), each signed in on its own.
    public var officers: [String: OfficerProfile]?

    /// An empty configuration.
    public init(server: String? = nil, email: String? = nil, token: String? = nil, root: String? = nil) {
        self.server = server
        self.email = email
        self.token = token
        self.root = root
    }
}

/// A named Officer server in the config: where it is and what signing in to it keeps, as for the default server.
public struct OfficerProfile: Codable, Sendable, Equatable {
    /// Base URL of the server.
    public var server: String
    /// Email used to sign in.
    public var email: String?
    /// The JWT.
    public var token: String?
    /// The password kept by `login --remember`.
    public var password: String?
    /// A file holding that password instead.
    public var passwordFile: String?

    /// A server not signed in to yet.
    public init(server: String) { self.server = server }
}
