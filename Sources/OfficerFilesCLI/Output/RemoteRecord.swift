import FileModel

/// A remote in JSON (`remote list`, `remote add`): schema `remote`.
struct RemoteRecord: Encodable, Sendable {
    /// What its paths start with (`officer` for the default server).
    var name: String
    /// `officer` or `s3`.
    var kind: String
    /// The server's or store's address.
    var endpoint: String
    /// True for the default Officer server (`officer:` paths, plain paths).
    var isDefault: Bool
    /// An Officer server: whether a token is kept for it, and for whom.
    var signedIn: Bool?
    var email: String?
    /// An S3 store: how it is addressed and with which key.
    var region: String?
    var pathStyle: Bool?
    var accessKey: String?
}

/// A remote removed (`remote remove`): schema `remote-removed`.
struct RemoteRemovedRecord: Encodable, Sendable {
    var name: String
}

/// Who is signed in where (`login`, `whoami`): schema `account`.
struct AccountRecord: Encodable, Sendable {
    /// The server's address.
    var server: String
    var user: User
    /// The server's own version, as it says (login only).
    var serverVersion: String?

    struct User: Encodable, Sendable {
        var id: String
        var email: String
        var name: String
        var role: String

        init(_ user: UserInfo) {
            id = user.id
            email = user.email
            name = user.name
            role = user.role
        }
    }
}

/// What `logout` did: schema `logout`.
struct LogoutRecord: Encodable, Sendable {
    var server: String
    /// True when the server revoked the token; false when it was only forgotten here (or there was none).
    var revoked: Bool
    /// Whether a token was kept at all.
    var wasSignedIn: Bool
}
