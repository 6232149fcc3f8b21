import FileModel

/// A named Officer server besides the default one (the seed's server profiles: home and work, dev and prod):
/// paths on it are written `NAME:/path` or `NAME:ROOT:/path`.
public struct OfficerRemote: Sendable, Codable, Equatable {
    /// The name paths use.
    public var name: String
    /// The server's base URL.
    public var server: String

    /// Describes a remote.
    public init(name: String, server: String) {
        self.name = name
        self.server = server
    }
}
