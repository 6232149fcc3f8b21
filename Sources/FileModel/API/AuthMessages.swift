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
    package init(id: String, email: String, name: String, role: String) {
        self.id = id
        self.email = email
        self.name = name
        self.role = role
    }
}

/// Body of `POST /api/auth/signin`.
package struct SignInRequest: Codable, Sendable {
    /// Login email.
    package var email: String
    /// Password; sent only in this body, never logged.
    package var password: String

    /// Creates the request.
    package init(email: String, password: String) {
        self.email = email
        self.password = password
    }
}

/// Answer to `POST /api/auth/signin`.
package struct SignInResponse: Codable, Sendable {
    /// The JWT to send as `Authorization: Bearer …`.
    package var token: String
    /// Seconds since 1970 when the token stops being accepted.
    package var expiresAt: Double
    /// The user signed in.
    package var user: UserInfo
}

/// Answer to `GET /api/auth/me`.
package struct MeResponse: Codable, Sendable {
    /// The user the token belongs to.
    package var user: UserInfo
}

/// Answer to the public `GET /api/server-settings/plugins`, used to check that a URL is an Officer server and to
/// learn what it offers. Read tolerantly: a server may leave out any field (the seed's server has no `server`
/// block, so it names no version or features); a missing field is nil, never a failure to sign in.
package struct PluginsResponse: Codable, Sendable {
    /// Who is answering.
    package struct Server: Codable, Sendable {
        /// `officer` for an Officer server, when it says.
        package var name: String?
        /// The server's version, when it says.
        package var version: String?
        /// The contract version of `docs/officer-api.md` it implements, when it says.
        package var apiVersion: Int?
        /// The proposals it offers beyond the seed's endpoints (`tus`, `tree`, `sha256`, `mtime`, …); nil when it
        /// names none, which says nothing of what it offers.
        package var features: [String]?
    }
    /// One plugin and whether it is on.
    package struct Plugin: Codable, Sendable {
        /// Plugin name, e.g. `file-browser`.
        package var name: String
        /// Whether it is enabled (on when the answer does not say).
        package var enabled: Bool

        /// Reads a plugin, `enabled` defaulting to true.
        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            enabled = try container.decodeIfPresent(Bool.self, forKey: .enabled) ?? true
        }
    }
    /// Who is answering, when the answer says.
    package var server: Server?
    /// The plugins installed (none when the answer lists none).
    package var plugins: [Plugin]

    /// Reads the answer, every field optional.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        server = try? container.decodeIfPresent(Server.self, forKey: .server)
        plugins = (try? container.decodeIfPresent([Plugin].self, forKey: .plugins)) ?? []
    }

    /// The features it names, nil when it names none.
    package var features: [String]? { server?.features }
}
