/// Any place a command or an app names, parsed once: a file or folder on this machine, on an Officer server (the
/// default one or a named one), on an S3-compatible remote, or behind a plain http(s) URL (read-only).
///
/// Cases may be added in a later version: a `switch` over it keeps a `default`.
public enum Location: Sendable, Hashable, CustomStringConvertible {
    /// A path on this machine, as given.
    case local(String)
    /// A path on an Officer server: the default one, or the named remote ``RemotePath/remote``.
    case officer(RemotePath)
    /// A bucket, prefix or object on a configured S3 remote.
    case object(ObjectStorePath)
    /// A plain http(s) URL.
    case url(String)

    /// What a text without a scheme or a remote's name means where it is read.
    ///
    /// Its cases are all there will be: a `switch` over it needs no `default`.
    public enum PlainPath: Sendable {
        /// A file on this machine (`put`, `sync`, `info`…).
        case local
        /// A path on the default Officer server (`ls /docs`, `rm /a`: only remote paths make sense there).
        case officer
    }

    /// Parses what a user typed: `http(s)://…`; `officer:/p` or `officer:ROOT:/p`; `NAME:…` for a configured
    /// Officer remote (`NAME:/p`, `NAME:ROOT:/p`) or S3 remote (`NAME:bucket/key`); else a plain path, which
    /// `plain` says how to read. A trailing `/` is kept (it says "a folder").
    package init(
        parsing text: String, officerRemotes: Set<String> = [], objectRemotes: Set<String> = [],
        defaultRoot: String = RemotePath.defaultRoot, plain: PlainPath = .local
    ) throws(RemotePathError) {
        // Every other form has a colon (`http:`, `officer:`, `NAME:`): a plain path is told at once (`info` may be
        // given thousands).
        if text.utf8.contains(UInt8(ascii: ":")) {
            if let remote = try Self.remote(
                parsing: text, officerRemotes: officerRemotes, objectRemotes: objectRemotes, defaultRoot: defaultRoot)
            {
                self = remote
                return
            }
        }
        switch plain {
        case .local: self = .local(text)
        case .officer:
            // `./x`, `../x` and `~/x` are written as places on this machine: never taken for a server's path.
            if ["./", "../", "~/"].contains(where: text.hasPrefix) || [".", "..", "~"].contains(text) {
                throw .notRemote(text)
            }
            var path = try RemotePath(root: defaultRoot, path: text)
            path.namesFolder = text.count > 1 && text.hasSuffix("/") && !path.isRoot
            self = .officer(path)
        }
    }

    /// A URL, an Officer path or an object-store path, or nil for a plain path.
    private static func remote(
        parsing text: String, officerRemotes: Set<String>, objectRemotes: Set<String>, defaultRoot: String
    ) throws(RemotePathError) -> Location? {
        let lowered = text.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") { return .url(text) }
        try checkRemoteName(text, known: officerRemotes.union(objectRemotes))
        if RemotePath.isRemote(text, remotes: officerRemotes) {
            return .officer(try RemotePath(parsing: text, defaultRoot: defaultRoot, remotes: officerRemotes))
        }
        return try ObjectStorePath(parsing: text, remotes: objectRemotes).map(Location.object)
    }

    /// Refuses `NAME:…` whose NAME looks like a remote's name (a letter, then letters, digits, `-`, `_`; two or
    /// more) but is none of `known`: a typo or a removed remote must never become a folder called `wrk:` on the
    /// default server, or a local one. `officer`, `http`, `https` and `file` are never remote names.
    package static func checkRemoteName(_ text: String, known: Set<String>) throws(RemotePathError) {
        guard let colon = text.firstIndex(of: ":") else { return }
        let name = String(text[..<colon])
        guard name.count >= 2, name.count <= 64, let first = name.unicodeScalars.first, first.isASCII,
            first.properties.isAlphabetic,
            name.unicodeScalars.allSatisfy({
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
            }),
            !["officer", "http", "https", "file"].contains(name.lowercased()), !known.contains(name)
        else { return }
        throw .unknownRemote(name, suggestion: EditDistance.suggestion(for: name, among: known.sorted() + ["officer"]))
    }

    /// The last component: the name a copy gets elsewhere.
    package var name: String {
        switch self {
        case .local(let path):
            let trimmed = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
            return trimmed.split(separator: "/").last.map(String.init) ?? trimmed
        case .officer(let path): return path.name
        case .object(let path): return path.name
        case .url(let text):
            let withoutQuery = text.split(separator: "?", maxSplits: 1).first.map(String.init) ?? text
            let afterHost = withoutQuery.split(separator: "/", omittingEmptySubsequences: true).dropFirst(2)
            return afterHost.last.map { String($0).removingPercentEscapes } ?? ""
        }
    }

    /// The top of a root, a remote's list of buckets, or `/`: never removed, whatever is asked.
    package var isTopOfRoot: Bool {
        switch self {
        case .local(let path): path.split(separator: "/").isEmpty
        case .officer(let path): path.isRoot
        case .object(let path): path.isRemoteRoot
        case .url: false
        }
    }

    /// The folder it is in (the top of a root is its own); nil for a web address.
    package var parent: Location? {
        switch self {
        case .local(let path):
            let parts = path.split(separator: "/")
            guard parts.count > 1 else { return .local(path.hasPrefix("/") ? "/" : ".") }
            return .local((path.hasPrefix("/") ? "/" : "") + parts.dropLast().joined(separator: "/"))
        case .officer(let path): return .officer(path.parent)
        case .object(let path):
            let parts = path.objectKey.split(separator: "/")
            if parts.isEmpty { return .object(ObjectStorePath(remote: path.remote, bucket: "", key: "")) }
            let key = parts.dropLast().joined(separator: "/")
            return .object(ObjectStorePath(remote: path.remote, bucket: path.bucket, key: key.isEmpty ? "" : key + "/"))
        case .url: return nil
        }
    }

    /// The place one level down, named `name` (a folder's entry); nil for a web address, or a name that is not one.
    package func appending(_ name: String) -> Location? {
        switch self {
        case .local(let path): .local(path.hasSuffix("/") ? path + name : path + "/" + name)
        case .officer(let path): (try? path.appending(name)).map { .officer($0) }
        case .object(let path): .object(path.appending(name))
        case .url: nil
        }
    }

    /// The path whose names the one name rule (``FileName``) governs: an Officer path's, a local one's; nil where
    /// names are the remote's own business (an object's key, a web address).
    package var ruledPath: String? {
        switch self {
        case .officer(let remote): remote.path
        case .local(let local): local
        case .object, .url: nil
        }
    }

    /// The path on this machine; nil for a remote place.
    package var localPath: String? {
        if case .local(let path) = self { path } else { nil }
    }

    /// The folder a remote location's last name is in, where a pattern in that name is matched (a local pattern
    /// is the shell's, a web address has none): nil for those, and for the top of a root or a bucket.
    package var patternFolder: Location? {
        switch self {
        case .officer(let path): path.isRoot ? nil : parent
        case .object(let path): path.isBucket || path.isRemoteRoot ? nil : parent
        case .local, .url: nil
        }
    }

    /// True when it was written with a trailing `/` below a root: only a folder may be there.
    package var namesFolder: Bool {
        switch self {
        case .local(let path): path.count > 1 && path.hasSuffix("/")
        case .officer(let path): path.namesFolder
        case .object(let path): !path.isBucket && path.key.hasSuffix("/")
        case .url: false
        }
    }

    /// True for a plain http(s) URL.
    package var isWebAddress: Bool {
        if case .url = self { return true }
        return false
    }

    /// True for every place that is not this machine's disk.
    package var isRemote: Bool {
        if case .local = self { return false }
        return true
    }

    /// The name of the remote it is on (`officer` for the default server), nil on this machine or at a URL.
    package var remoteName: String? {
        switch self {
        case .local, .url: nil
        case .officer(let path): path.remote ?? "officer"
        case .object(let path): path.remote
        }
    }

    /// As the user would type it.
    public var description: String {
        switch self {
        case .local(let path): path
        case .officer(let path): path.description
        case .object(let path): path.description
        case .url(let text): text
        }
    }
}

extension String {
    /// `%XX` escapes decoded where they make valid UTF-8; the text unchanged otherwise (FileModel has no Foundation).
    fileprivate var removingPercentEscapes: String {
        var bytes: [UInt8] = []
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%"), let high = utf8.index(index, offsetBy: 1, limitedBy: utf8.endIndex),
                high != utf8.endIndex,
                let low = utf8.index(high, offsetBy: 1, limitedBy: utf8.endIndex), low != utf8.endIndex,
                let value = UInt8(String(decoding: [utf8[high], utf8[low]], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                index = utf8.index(after: low)
                continue
            }
            bytes.append(byte)
            index = utf8.index(after: index)
        }
        return String(validating: bytes, as: UTF8.self) ?? self
    }
}
