import Officer

/// What `officer-files login` remembers: the server, who signed in, and the token.
package struct OfficerConfig: Codable, Sendable, Equatable {
    /// Base URL of the Officer server.
    package var server: String?
    /// Email used to sign in.
    package var email: String?
    /// The JWT; the file holding it is kept at mode 0600.
    package var token: String?
    /// Root used when a path names none.
    package var root: String?
    /// Object-store remotes by name (`remote add`), secrets included: the file is 0600.
    package var remotes: [String: ObjectStoreRemote]?
    /// The password an unattended run signs in again with when the token expires (`login --remember`).
    package var password: String?
    /// A file holding that password instead, read each time (`login --remember --password-file`).
    package var passwordFile: String?
    /// The CA certificate file (PEM) each server's certificate is checked against, by server URL: what `login
    /// --cacert FILE` was given, so later commands trust the same server without the option.
    package var certificates: [String: String]?
    /// Other Officer servers by name (`remote add NAME --officer URL`), each signed in on its own.
    package var officers: [String: OfficerProfile]?

    /// An empty configuration.
    package init(server: String? = nil, email: String? = nil, token: String? = nil, root: String? = nil) {
        self.server = server
        self.email = email
        self.token = token
        self.root = root
    }
}

/// A named Officer server in the config: where it is and what signing in to it keeps, as for the default server.
package struct OfficerProfile: Codable, Sendable, Equatable {
    /// Base URL of the server.
    package var server: String
    /// Email used to sign in.
    package var email: String?
    /// The JWT.
    package var token: String?
    /// The password kept by `login --remember`.
    package var password: String?
    /// A file holding that password instead.
    package var passwordFile: String?

    /// A server not signed in to yet.
    package init(server: String) { self.server = server }
}
