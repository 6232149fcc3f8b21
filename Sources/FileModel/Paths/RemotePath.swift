/// A location on an Officer server: a named root plus a normalized absolute POSIX path inside it.
///
/// Normalization collapses repeated slashes and `.` components and resolves `..` without ever
/// leaving the root, so a `RemotePath` can always be sent to the server as it is.
public struct RemotePath: Hashable, Sendable, CustomStringConvertible {
    /// The root the path lives in (`home` unless chosen otherwise).
    public let root: String
    /// The normalized absolute path inside the root: starts with `/`, never ends with one (except `/` itself).
    public let path: String

    /// The root used when none is named.
    public static let defaultRoot = "home"

    /// Creates a normalized path; throws when the input is malformed or would escape the root.
    public init(root: String = RemotePath.defaultRoot, path: String) throws(RemotePathError) {
        try Self.validateRoot(root)
        self.root = root
        self.path = try Self.normalize(path)
    }

    /// Parses the command-line grammar `officer:/path` or `officer:ROOT:/path`.
    ///
    /// A path without a leading slash (`officer:docs/a.txt`) is taken from the root's top.
    public init(parsing text: String, defaultRoot: String = RemotePath.defaultRoot) throws(RemotePathError) {
        guard let rest = Self.stripScheme(text) else { throw .notRemote(text) }
        if rest.hasPrefix("/") || !rest.contains(":") {
            try self.init(root: defaultRoot, path: String(rest))
        } else {
            let colon = rest.firstIndex(of: ":")!
            try self.init(root: String(rest[..<colon]), path: String(rest[rest.index(after: colon)...]))
        }
    }

    /// True when `text` uses the `officer:` grammar rather than naming a local file.
    public static func isRemote(_ text: String) -> Bool { stripScheme(text) != nil }

    /// The last path component, or `/` for the root itself.
    public var name: String {
        path == "/" ? "/" : String(path[path.index(after: path.lastIndex(of: "/")!)...])
    }

    /// The containing directory; the root's top is its own parent.
    public var parent: RemotePath {
        guard path != "/" else { return self }
        let cut = path.lastIndex(of: "/")!
        let parentPath = cut == path.startIndex ? "/" : String(path[..<cut])
        return RemotePath(uncheckedRoot: root, path: parentPath)
    }

    /// True for the top of the root.
    public var isRoot: Bool { path == "/" }

    /// The path one level down; `name` must be a single valid name (``FileName``).
    public func appending(_ name: String) throws(RemotePathError) -> RemotePath {
        guard FileName.isValid(name) else { throw .invalidComponent(name) }
        return RemotePath(uncheckedRoot: root, path: path == "/" ? "/" + name : path + "/" + name)
    }

    /// The path in the command-line grammar, naming the root only when it is not the default.
    public var description: String {
        root == Self.defaultRoot ? "officer:\(path)" : "officer:\(root):\(path)"
    }

    init(uncheckedRoot root: String, path: String) {
        self.root = root
        self.path = path
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

    private static func normalize(_ raw: String) throws(RemotePathError) -> String {
        guard !raw.contains("\0") else { throw .containsNUL(raw.replacingNULs()) }
        guard !raw.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
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
