import Transfer

/// A named S3-compatible remote as configured: where it is, how it is addressed and the keys.
public struct ObjectStoreRemote: Sendable, Codable, Equatable {
    /// The name paths use (`NAME:bucket/key`).
    public var name: String
    /// `scheme://host[:port]`.
    public var endpoint: String
    /// The region requests are signed for.
    public var region: String
    /// Buckets in the path rather than the host name.
    public var pathStyle: Bool
    /// The access key id.
    public var accessKey: String
    /// The secret key (kept in the 0600 configuration; never printed).
    public var secretKey: String

    /// Creates a remote description.
    public init(
        name: String, endpoint: String, region: String = "us-east-1", pathStyle: Bool = true, accessKey: String,
        secretKey: String
    ) {
        self.name = name
        self.endpoint = endpoint
        self.region = region
        self.pathStyle = pathStyle
        self.accessKey = accessKey
        self.secretKey = secretKey
    }

    /// Remote names: a letter, then letters, digits, `-` and `_` (so `C:` paths or URLs are never taken for one),
    /// and never `officer`, `http` or `https`.
    package static func checkName(_ name: String) throws(ObjectStoreError) {
        let first = name.unicodeScalars.first
        guard let first, first.properties.isAlphabetic, first.isASCII, name.count >= 2, name.count <= 64,
            name.unicodeScalars.allSatisfy({
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
            }),
            !["officer", "http", "https", "file"].contains(name.lowercased())
        else {
            throw .invalidAddress(
                name,
                reason:
                    "not a remote name (2 to 64 letters, digits, '-' and '_', starting with a letter; not officer, http, https or file)"
            )
        }
    }
}
