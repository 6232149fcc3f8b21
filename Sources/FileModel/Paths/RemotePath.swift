/// A location on an Officer server: a named root plus a normalized absolute POSIX path inside it.
///
/// Normalization collapses repeated slashes and `.` components and resolves `..` without ever
/// leaving the root, so a `RemotePath` can always be sent to the server as it is.
public struct RemotePath: Hashable, Sendable, CustomStringConvertible {
    /// The root the path lives in (`home` unless chosen otherwise).
    public let root: String
    /// The normalized absolute path inside the root: starts with `/`, never ends with one (except `/` itself).
    public let path: String
    /// The named Officer remote it is on (`work` in `work:/Documents`); nil for the default server (`officer:`).
    public let remote: String?
    /// True when it was written with a trailing `/` (`officer:/docs/`): it must be a folder (a file there is
    /// "not a folder"). Not part of its identity: `officer:/docs/` and `officer:/docs` are the same place.
    public var namesFolder = false

    /// The same place whatever the form it was written in.
    public static func == (lhs: RemotePath, rhs: RemotePath) -> Bool {
        lhs.root == rhs.root && lhs.path == rhs.path && lhs.remote == rhs.remote
    }

    /// Hashes the place (root, path, remote).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(root)
        hasher.combine(path)
        hasher.combine(remote)
    }

    /// The root used when none is named.
    public static let defaultRoot = "home"

    /// Creates a normalized path; throws when the input is malformed or would escape the root.
    package init(root: String = RemotePath.defaultRoot, path: String, remote: String? = nil) throws(RemotePathError) {
        try Self.validateRoot(root)
        self.root = root
        self.path = try Self.normalize(path)
        self.remote = remote
    }

    /// A path the server listed: normalized like any other, but a control character in a name is kept, since
    /// the file is there and a listing, a pattern or a removal must name it (nothing of that name is created
    /// here: a download's local name keeps the name rule). A NUL or a climb above the root is still refused.
    package init(listed path: String, root: String = RemotePath.defaultRoot, remote: String? = nil)
        throws(RemotePathError)
    {
        try Self.validateRoot(root)
        self.root = root
        self.path = try Self.normalize(path, controlCharacters: true)
        self.remote = remote
    }

    /// Parses the command-line grammar `officer:/path` or `officer:ROOT:/path`, or the same after the name of
    /// one of `remotes` (configured Officer remotes: `work:/path`).
    ///
    /// A path without a leading slash (`officer:docs/a.txt`) is taken from the root's top.
    package init(parsing text: String, defaultRoot: String = RemotePath.defaultRoot, remotes: Set<String> = [])
        throws(RemotePathError)
    {
        guard let (remote, rest) = Self.split(text, remotes: remotes) else { throw .notRemote(text) }
        if rest.hasPrefix("/") || !rest.contains(":") {
            try self.init(root: defaultRoot, path: String(rest), remote: remote)
        } else {
            let colon = rest.firstIndex(of: ":")!
            try self.init(root: String(rest[..<colon]), path: String(rest[rest.index(after: colon)...]), remote: remote)
        }
        namesFolder = rest.count > 1 && rest.hasSuffix("/") && path != "/"
    }

    /// True when `text` uses the `officer:` grammar (or names one of `remotes`) rather than naming a local file.
    package static func isRemote(_ text: String, remotes: Set<String> = []) -> Bool {
        split(text, remotes: remotes) != nil
    }

    /// The remote's name (nil for `officer:`) and what follows its colon.
    private static func split(_ text: String, remotes: Set<String>) -> (String?, Substring)? {
        if let rest = stripScheme(text) { return (nil, rest) }
        guard let colon = text.firstIndex(of: ":"), remotes.contains(String(text[..<colon])) else { return nil }
        return (String(text[..<colon]), text[text.index(after: colon)...])
    }

    /// The last path component, or `/` for the root itself.
    public var name: String {
        path == "/" ? "/" : String(path[path.index(after: path.lastIndex(of: "/")!)...])
    }

    /// The containing directory; the root's top is its own parent.
    package var parent: RemotePath {
        guard path != "/" else { return self }
        let cut = path.lastIndex(of: "/")!
        let parentPath = cut == path.startIndex ? "/" : String(path[..<cut])
        return RemotePath(uncheckedRoot: root, path: parentPath, remote: remote)
    }

    /// True for the top of the root.
    public var isRoot: Bool { path == "/" }

    /// The path one level down; `name` must be a single valid name (`FileName`).
    package func appending(_ name: String) throws(RemotePathError) -> RemotePath {
        guard FileName.isValid(name) else { throw .invalidComponent(name) }
        return RemotePath(uncheckedRoot: root, path: path == "/" ? "/" + name : path + "/" + name, remote: remote)
    }

    /// The path in the command-line grammar, naming the root only when it is not the default.
    public var description: String {
        let scheme = remote ?? "officer"
        return root == Self.defaultRoot ? "\(scheme):\(path)" : "\(scheme):\(root):\(path)"
    }

    init(uncheckedRoot root: String, path: String, remote: String? = nil) {
        self.root = root
        self.path = path
        self.remote = remote
    }

    private static func stripScheme(_ text: String) -> Substring? {
        text.hasPrefix("officer:") ? text.dropFirst("officer:".count) : nil
    }

    private static func validateRoot(_ root: String) throws(RemotePathError) {
        let allowed = root.unicodeScalars.allSatisfy { scalar in
            (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "._~-".unicodeScalars.contains(scalar))
                && scalar.isASCII
        }
        guard !root.isEmpty, allowed, root != ".", root != ".." else { throw .invalidRoot(root) }
    }

    private static func normalize(_ raw: String, controlCharacters: Bool = false) throws(RemotePathError) -> String {
        guard !raw.contains("\0") else { throw .containsNUL(raw.replacingNULs()) }
        guard controlCharacters || !raw.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw .controlCharacter(raw)
        }
        var components: [Substring] = []
        for component in raw.split(separator: "/", omittingEmptySubsequences: true) {
            switch component {
            case ".": continue
            case "..":
                guard !components.isEmpty else { throw .escapesRoot(raw) }
                components.removeLast()
            default: components.append(component)
            }
        }
        return "/" + components.joined(separator: "/")
    }
}

extension String {
    fileprivate func replacingNULs() -> String {
        unicodeScalars.map { $0 == "\0" ? "\\0" : String($0) }.joined()
    }
}
