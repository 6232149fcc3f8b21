/// A place on a named object-store remote, as typed: `NAME:` (the buckets), `NAME:bucket`, `NAME:bucket/some/key`.
/// Keys are `/`-separated; a trailing `/` or an empty key names a "folder" (a prefix).
public struct ObjectStorePath: Sendable, Hashable, CustomStringConvertible {
    /// The remote's configured name.
    public var remote: String
    /// The bucket; empty for the remote itself.
    public var bucket: String
    /// The key or prefix inside the bucket, without a leading `/`; empty for the bucket itself.
    public var key: String

    /// Creates a path.
    public init(remote: String, bucket: String, key: String) {
        self.remote = remote
        self.bucket = bucket
        self.key = key
    }

    /// Parses `NAME:bucket/key` for a known remote `NAME`; nil when the text does not start with `NAME:`.
    /// Runs of `/` are one, a leading `/` after the colon is allowed, and `.`/`..` components are refused.
    package init?(parsing text: String, remotes: Set<String>) throws(RemotePathError) {
        guard let colon = text.firstIndex(of: ":"), remotes.contains(String(text[..<colon])) else { return nil }
        remote = String(text[..<colon])
        let rest = text[text.index(after: colon)...]
        let parts = rest.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        if rest.contains("\0") { throw .containsNUL(text) }
        if rest.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw .controlCharacter(text)
        }
        if parts.contains(where: { $0 == "." || $0 == ".." }) { throw .escapesRoot(text) }
        bucket = parts.first ?? ""
        key = parts.dropFirst().joined(separator: "/")
        if rest.hasSuffix("/"), !key.isEmpty { key += "/" }
        if !bucket.isEmpty, !Self.couldBeBucket(bucket) { throw .invalidBucket(path: text, bucket: bucket) }
    }

    /// What any S3 store could call a bucket: 3 to 255 letters, digits, `.`, `-`, `_` (the old names some
    /// stores still hold are wider than today's rule of 63 lower-case characters; the store has the last word).
    static func couldBeBucket(_ name: String) -> Bool {
        (3...255).contains(name.utf8.count)
            && name.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: ".")
                    || byte == UInt8(ascii: "_")
            }
    }

    /// Whether it names the remote itself (its buckets).
    public var isRemoteRoot: Bool { bucket.isEmpty }
    /// Whether it names a whole bucket.
    public var isBucket: Bool { !bucket.isEmpty && key.isEmpty }
    /// The last component of the key (the bucket's name for a bucket).
    public var name: String {
        let trimmed = key.hasSuffix("/") ? String(key.dropLast()) : key
        return trimmed.split(separator: "/").last.map(String.init) ?? bucket
    }
    /// The key as a prefix for listing what is "inside" it: empty, or ending with `/`.
    public var folderPrefix: String { key.isEmpty || key.hasSuffix("/") ? key : key + "/" }
    /// The key without a trailing `/`.
    public var objectKey: String { key.hasSuffix("/") ? String(key.dropLast()) : key }

    /// A path one component further down.
    package func appending(_ component: String) -> ObjectStorePath {
        if bucket.isEmpty { return ObjectStorePath(remote: remote, bucket: component, key: "") }
        return ObjectStorePath(remote: remote, bucket: bucket, key: folderPrefix + component)
    }

    /// `NAME:bucket/key`.
    public var description: String { "\(remote):\(bucket)\(key.isEmpty ? "" : "/" + key)" }
}
