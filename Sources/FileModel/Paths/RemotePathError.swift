/// Why a string could not become a ``RemotePath``.
///
/// Cases may be added in a later version: a `switch` over it keeps a `default`.
package enum RemotePathError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The path contains a NUL byte (shown escaped as `\0`).
    case containsNUL(String)
    /// The path contains a control character such as a newline.
    case controlCharacter(String)
    /// `..` components would climb above the root.
    case escapesRoot(String)
    /// The root name is empty or has characters other than letters, digits, `.`, `_`, `~`, `-`.
    case invalidRoot(String)
    /// A single name to append breaks the name rule (`FileName`).
    case invalidComponent(String)
    /// A name in a path to be created (a folder, a copy's or a move's target) breaks the name rule.
    case unstorableName(folder: String, name: String)
    /// The text does not start with `officer:`.
    case notRemote(String)
    /// `NAME:` names no configured remote (`suggestion`: the nearest configured name).
    case unknownRemote(String, suggestion: String?)
    /// The bucket of an object-store path (`NAME:b/key`) cannot be one (too short, too long, a character no
    /// bucket name has): refused before any request.
    case invalidBucket(path: String, bucket: String)

    /// A one-line message naming the offending input.
    package var description: String {
        switch self {
        case .containsNUL(let path): "remote path \"\(path)\" contains a NUL byte"
        case .controlCharacter(let path): "remote path \(FileName.quoted(path)) contains a control character"
        case .escapesRoot(let path): "remote path \"\(path)\" climbs above its root with '..'"
        case .invalidRoot(let root): "invalid root name \"\(root)\": use letters, digits, '.', '_', '~' or '-'"
        case .invalidComponent(let name):
            "invalid file name \(FileName.shown(name)): \(FileName.problem(name) ?? "not a single name")"
        case .unstorableName(let folder, let name):
            "\(folder): cannot create \(FileName.shown(name)): \(FileName.problem(name) ?? "not a single name")"
        case .invalidBucket(let path, let bucket):
            "\(path): \(FileName.quoted(bucket)) is not a bucket name (3 to 63 letters, digits, '-' and '.')"
        case .notRemote(let text): "\"\(text)\" is not a remote path: write officer:/path or officer:ROOT:/path"
        case .unknownRemote(let name, let suggestion):
            "\(name): no such remote" + (suggestion.map { " (did you mean \($0)?)" } ?? "")
                + "; see officer-files remote list (a name with a colon on the server is written officer:/\(name):…)"
        }
    }
}
