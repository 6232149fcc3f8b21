/// The signed-in user as `/api/auth/me` and `/api/auth/signin` describe them.
public struct UserInfo: Codable, Hashable, Sendable {
    /// Stable user id.
    public var id: String
    /// Login email.
    public var email: String
    /// Display name.
    public var name: String
    /// `member`, `admin`, `owner` or `super-admin`.
    public var role: String

    /// Creates a user record.
    public init(id: String, email: String, name: String, role: String) {
        self.id = id
        self.email = email
        self.name = name
        self.role = role
    }
}

/// Body of `POST /api/auth/signin`.
public struct SignInRequest: Codable, Sendable {
    /// Login email.
    public var email: String
    /// Password; sent only in this body, never logged.
    public var password: String

    /// Creates the request.
    public init(email: String, password: String) {
        self.email = email
        self.password = password
    }
}

/// Answer to `POST /api/auth/signin`.
public struct SignInResponse: Codable, Sendable {
    /// The JWT to send as `Authorization: Bearer …`.
    public var token: String
    /// Seconds since 1970 when the token stops being accepted.
    public var expiresAt: Double
    /// The user signed in.
    public var user: UserInfo
}

/// Answer to `GET /api/auth/me`.
public struct MeResponse: Codable, Sendable {
    /// The user the token belongs to.
    public var user: UserInfo
}

/// Answer to the public `GET /api/server-settings/plugins`, used to check that a URL is an Officer server.
public struct PluginsResponse: Codable, Sendable {
    /// Who is answering.
    public struct Server: Codable, Sendable {
        /// Always `officer` for an Officer server.
        public var name: String
        /// The server's version.
        public var version: String
        /// The contract version of `docs/officer-api.md` it implements.
        public var apiVersion: Int
        /// Optional capabilities beyond the base contract (`tus`, `tree`, `sha256`, `mtime`, `ai`).
        public var features: [String]
    }
    /// One plugin and whether it is on.
    public struct Plugin: Codable, Sendable {
        /// Plugin name, e.g. `file-browser`.
        public var name: String
        /// Whether it is enabled.
        public var enabled: Bool
    }
    /// Who is answering.
    public var server: Server
    /// The plugins installed.
    public var plugins: [Plugin]
}
