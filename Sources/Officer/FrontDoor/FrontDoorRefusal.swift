import FileModel

/// Refusals of the front door's own policies (the rules every operation shares).
package enum FrontDoorRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// A file operation was asked of a folder.
    case isAFolder(RemotePath)
    /// Offline, and the cache has no copy of what was asked for.
    case notCachedOffline(RemotePath)
    /// Offline, and the cached copy failed its SHA-256 check (it was dropped; online it is fetched again).
    case cachedCopyDamaged(RemotePath)
    /// Offline, and what was asked for needs the network (a plain URL, an upload, a change on the server).
    case needsNetwork(String)
    /// The front door has no token for its server: sign in first.
    case notSignedIn(server: String)
    /// The front door was made without a server, and the operation needs one.
    case noServer
    /// The front door was made without a cache, and the operation works on it.
    case noCache
    /// An Officer upload's destination exists, and overwriting was not asked for.
    case exists(String)
    /// A thumbnail was asked of a file that has no picture this can show.
    case noPicture(String)
    /// A pattern (`officer:/x/*.jpg`) that matches no entry of its folder.
    case noMatch(String)
    /// A transcode was asked of a file that is no video (its type as the listing gives it).
    case notAVideo(String, mime: String)
    /// A value out of the range an operation takes.
    case invalidValue(String)
    /// The folder an extraction would create exists already.
    case folderExists(RemotePath)
    /// An archive whose safety report found risks (traversal, links out, a bomb, encryption): not extracted.
    /// `refusedWhole`: a member would land outside the folder (an absolute or `..` path, a link out), which the
    /// server refuses for the whole archive, asked or not.
    case unsafeArchive(String, risks: [String], refusedWhole: Bool)

    /// An object-store path names a folder (a bucket or a prefix) where a file was needed.
    case notAnObject(String)
    /// A folder (a bucket or a prefix with objects in it) was to be removed without asking for its contents.
    case needsRecursive(String)
    /// A folder was to be copied without asking for its contents.
    case copyNeedsRecursive(String)
    /// The top of a root (or a remote's list of buckets) was to be removed: never done.
    case topOfRoot(String)
    /// A path written as a folder (a trailing `/`) is a file.
    case notAFolder(String)
    /// A copy or move between two remotes (sync copies between them).
    case differentRemotes(String, String)
    /// A sync whose one side is the other or lies inside it (on the same remote).
    case overlapping(String, String)
    /// A tus server (not an Officer one, whose 409 means the file exists) refused an upload, in its words.
    case tusRefused(local: String, url: String, reason: String)
    /// A one-line message, in the user's terms.
    package var description: String {
        switch self {
        case .isAFolder(let path): "\(path): is a folder"
        case .notCachedOffline(let path): "\(path): not in the cache (offline: no network request is made)"
        case .cachedCopyDamaged(let path):
            "the cached copy of \(path) is damaged (its bytes no longer match their SHA-256); it was dropped: run it again online to fetch the file"
        case .needsNetwork(let what): "\(what): needs the network, and this is offline"
        case .notSignedIn(let server): "\(server): not signed in"
        case .noServer: "no Officer server is configured"
        case .noCache: "no cache is configured"
        case .exists(let path): "\(path): already exists"
        case .noPicture(let path): "\(path): has no picture to make a thumbnail of"
        case .noMatch(let pattern): "\(pattern): nothing matches"
        case .notAVideo(let path, let mime):
            "\(path): is not a video (\(mime)); the server transcodes video and audio files"
        case .invalidValue(let message): message
        case .folderExists(let path): "\(path): already exists; name another folder to extract into"
        case .notAnObject(let path): "\(path): is a folder (a bucket or a prefix), not a file"
        case .needsRecursive(let path): "\(path): is a folder with files in it"
        case .copyNeedsRecursive(let path): "\(path): is a folder, and copying its contents was not asked for"
        case .topOfRoot(let path): "refusing to remove the top of \(path)"
        case .notAFolder(let path): "\(path): is a file, not a folder"
        case .differentRemotes(let source, let destination):
            "\(source) and \(destination) are on different remotes; a sync copies between them"
        case .overlapping(let source, let destination):
            "\(source) and \(destination) overlap: a sync cannot have one side inside the other"
        case .tusRefused(let local, let url, let reason):
            "\(local) -> \(url): the tus server refused it (409 Conflict): \(reason)"
        case .unsafeArchive(let path, let risks, _):
            "\(path): unsafe to extract: \(risks.first ?? "risky members")"
                + (risks.count > 1 ? " (and \(risks.count - 1) more)" : "")
        }
    }
}

extension FrontDoorRefusal: CategorizedError {
    /// What kind of failure this is.
    package var category: ErrorCategory {
        switch self {
        case .isAFolder: .refused
        case .notCachedOffline: .notFound
        case .cachedCopyDamaged: .integrity
        case .needsNetwork: .refused
        case .notSignedIn: .authentication
        case .noServer: .invalidInput
        case .noCache: .invalidInput
        case .exists: .conflict
        case .noPicture, .notAVideo: .refused
        case .noMatch: .notFound
        case .invalidValue: .invalidInput
        case .unsafeArchive: .refused
        case .folderExists: .conflict
        case .notAnObject: .refused
        case .needsRecursive: .refused
        case .copyNeedsRecursive: .refused
        case .topOfRoot: .refused
        case .notAFolder: .conflict
        case .differentRemotes: .refused
        case .overlapping: .invalidInput
        case .tusRefused: .conflict
        }
    }
}
