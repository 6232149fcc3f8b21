import FileModel
import Foundation
import HTTP
import Journal
import Transfer

/// The front door: one object an app (or the CLI) creates for a server, which owns the HTTP settings, the token
/// store, the journal and the cache, and offers the operations. The rules every operation shares live here
/// once: nothing is overwritten without `force`, offline means no connection (answers come from the cache or
/// not at all), every name passes the one name rule, times are kept to the millisecond, and the token goes only
/// to the server that issued it.
///
/// Long operations (downloads, uploads) return a ``FileOperation``: iterate it for ``FileModel/TransferEvent``s,
/// await its `value` for the result (failing with an ``OfficerFilesError``, typed); cancelling stops the work.
public final class OfficerFiles: Sendable {
    /// What the front door is set up with.
    public struct Configuration: Sendable {
        /// The Officer server's base URL (`https://files.example.org`); nil for a front door without one, which
        /// still reads local files, archives and images, plain URLs, the cache and the journal (an Officer
        /// operation then fails with `FrontDoorRefusal/noServer`).
        public var server: String?
        /// Where the token is kept; the token it holds for `server` is used, and signing in saves there.
        public var tokens: any TokenStore
        /// The journal of unfinished transfers (SQLite); nil keeps none, so nothing resumes after a restart.
        public var journalPath: String?
        /// The content cache's folder; nil uses none (and offline then answers nothing).
        public var cacheDirectory: String?
        /// The most the cache may hold, in bytes.
        public var cacheLimit: Int64 = ContentCache.defaultLimit
        /// The folders the app keeps its files in, by name (`documents`, `caches`, `app-group`, or any name of
        /// letters, digits, `-`, `_`, `.`): the journal and the queue keep a local path under one relative to it
        /// (the deepest holding it), so moving them (an iOS app's container moves on every update) keeps every
        /// half-done transfer. Declare them anew each run, where they are now; a transfer under a name a run does
        /// not declare is kept for one that does.
        public var baseFolders: [String: String] = [:]
        /// HTTP settings: TLS, CA file, logging, low-speed limits, offline.
        package var http = HTTPClientConfiguration()
        /// No requests at all: a folder listed before lists from the cache (marked with when it was listed), a
        /// file fetched before reads from it, anything else fails with category `network` at once (an app's
        /// offline mode; a phone without signal). Changes can be kept for later (``makeOrQueue(_:)``).
        public var offline: Bool {
            get { http.offline }
            set { http.offline = newValue }
        }
        /// Seconds allowed to establish a connection (15).
        public var connectTimeout: Double {
            get { http.connectTimeout }
            set { http.connectTimeout = newValue }
        }
        /// A transfer that moves nothing for this many seconds fails as stalled (30).
        public var stallTimeout: Double {
            get { http.stallTimeout }
            set { http.stallTimeout = newValue }
        }
        /// Seconds a whole request may take; nil for no limit (the default: large files take what they take).
        public var totalTimeout: Double? {
            get { http.totalTimeout }
            set { http.totalTimeout = newValue }
        }
        /// A PEM file of the certificate authorities to trust instead of the system's (a self-hosted server's own
        /// CA, or its self-signed certificate); nil trusts the system's. The libcurl engine takes it; where the
        /// engine cannot (URLSession on Linux), a request is refused before anything is sent.
        public var trustedCertificates: String? {
            get { http.caCertificatePath }
            set { http.caCertificatePath = newValue }
        }
        /// The server's public keys to trust, each `sha256//` and the base64 SHA-256 of the key's DER
        /// (SubjectPublicKeyInfo; `openssl x509 -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst
        /// -sha256 -binary | base64`): when any is given, a server presenting another key is refused before a byte
        /// of the request is sent, even with a valid certificate. The libcurl engine pins; the URLSession engine
        /// refuses every request until its challenge handler is written (docs/PORTING.md).
        public var pinnedPublicKeys: [String] {
            get { http.pinnedPublicKeys }
            set { http.pinnedPublicKeys = newValue }
        }
        /// The `User-Agent` every request sends (`officer-files`): an app names itself and its version.
        public var userAgent: String {
            get { http.userAgent }
            set { http.userAgent = newValue }
        }
        /// The identifier of the app's background `URLSession` (the same on every launch): set, requests go through
        /// that session's engine, whose tasks the system carries on Apple platforms while the app is away (a default
        /// session where FoundationNetworking runs; docs/PORTING.md). Nil: the process's own engine.
        public var backgroundSessionIdentifier: String? {
            get { (http.engine as? URLSessionEngine)?.sessionIdentifier }
            set {
                http.engine =
                    newValue.map { URLSessionEngine.forSession($0) } ?? HTTPClientConfiguration.defaultEngine.value
            }
        }
        /// A folder listed before is listed from the cache when its server cannot be reached (its listing then
        /// carries ``FileModel/RemoteListing/listedAt``, the time it was made), as a phone app shows the last
        /// listing it had; false fails with category `network` instead (the CLI, whose scripts ask `--offline`).
        public var listsFromCacheWhenUnreachable = true
        /// The root a path names when it names none.
        public var defaultRoot = RemotePath.defaultRoot
        /// The object-store remotes it may reach (as `backup:bucket/key`), keys included.
        public var objectStores: [ObjectStoreRemote] = []
        /// Other Officer servers it may reach by name (`work:/Documents`), each with its own token in `tokens`
        /// and its own remembered offers; `server` stays the default one (`officer:`).
        public var officerRemotes: [OfficerRemote] = []
        /// Plug-ins for this front door's work (digests, file types), beside or instead of the process's.
        public var plugins = Plugins()
        /// Remotes made in code and registered by name (a test's in-memory remote): `NAME:bucket/key` goes to
        /// them as it goes to a configured S3 remote.
        package var registeredRemotes: [String: any Remote] = [:]
        /// Told what did not stop an operation but that its user should know, in one line: a damaged journal
        /// moved aside (and what was lost), a damaged cached copy dropped and fetched again. Nil drops them.
        public var onWarning: (@Sendable (String) -> Void)?

        /// A configuration for `server` with its token in `tokens`, journal and cache off.
        public init(server: String?, tokens: any TokenStore = MemoryTokenStore()) {
            self.server = server
            self.tokens = tokens
        }

        /// The standard places for a user of this machine: the journal under `$XDG_STATE_HOME` (or
        /// `~/.local/state`), the cache under `$XDG_CACHE_HOME` (or `~/.cache`), as the CLI uses them.
        public static func standard(server: String?, tokens: any TokenStore, environment: [String: String])
            -> Configuration
        {
            var configuration = Configuration(server: server, tokens: tokens)
            configuration.journalPath = TransferJournal.defaultPath(environment: environment)
            configuration.cacheDirectory = ContentCache.defaultDirectory(environment: environment)
            return configuration
        }
    }

    /// The configuration it was made with.
    package let configuration: Configuration
    /// The default server (`officer:`): its HTTP client, offers and uploads' endpoints, and the journal and cache
    /// every server of this front door shares.
    package let server: OfficerServer
    /// Folders listed whole for paging, kept for a cursor's life.
    let listingMemo: ListingMemo
    /// The named Officer remotes' servers, made on first use.
    private let servers = OtherServers()

    /// Sets up the parts; the journal and the cache open on first use.
    public init(configuration: Configuration) throws(OfficerFilesError) {
        self.configuration = configuration
        listingMemo = ListingMemo(clock: configuration.http.clock)
        server = OfficerServer(configuration: configuration, anchors: Self.anchors(for: configuration), sharing: nil)
    }

    /// The declared base folders and this front door's own: `prepared` (copies of images waiting for their upload)
    /// and `staging` (a sync's downloads before they take their names); a declared folder of the same name wins.
    private static func anchors(for configuration: Configuration) -> PathAnchors {
        var folders = ["prepared": preparedFolder(configuration), "staging": stagingFolder(configuration)]
        folders.merge(configuration.baseFolders) { _, declared in declared }
        return PathAnchors(folders)
    }

    /// The server of the Officer remote `name` (nil: the default one), sharing the default one's journal, cache
    /// and settings.
    package func server(named name: String?) throws -> OfficerServer {
        guard let name, name != "officer" else { return server }
        guard let remote = configuration.officerRemotes.first(where: { $0.name == name }) else {
            throw FrontDoorRefusal.invalidValue("\(name): no such remote")
        }
        if remote.server == configuration.server { return server }
        return servers.server(for: remote) {
            var configuration = self.configuration
            configuration.server = remote.server
            return OfficerServer(configuration: configuration, anchors: server.anchors, sharing: server)
        }
    }

    /// The server `path` is on.
    package func server(of path: RemotePath) throws -> OfficerServer { try server(named: path.remote) }

    /// Passes a warning on to ``Configuration/onWarning``.
    func warn(_ message: String) { server.warn(message) }

    /// True when no request is made (``HTTPClientConfiguration/offline``).
    package var isOffline: Bool { server.isOffline }

    /// The HTTP client of the default server (plain URLs go through it, without the token).
    package var http: HTTPClient { server.http }
    /// How local paths are kept (``PathAnchors``).
    package var anchors: PathAnchors { server.anchors }
    /// Unfinished transfers, when a journal is configured (opened on first use).
    package var journal: TransferJournal? {
        get throws(SQLiteError) { try server.journal }
    }
    /// The default server's API client (``OfficerServer/client``).
    package var client: OfficerClient {
        get throws(FrontDoorRefusal) { try server.client }
    }
    /// The content cache; nil when none is configured.
    package func cache() throws(CacheError) -> ContentCache? { try server.cache() }

    /// A path from what a user typed: `officer:/p`, `officer:ROOT:/p`, or a plain `/p` in the default root.
    package func path(_ text: String) throws(RemotePathError) -> RemotePath {
        let remotes = Set(configuration.officerRemotes.map(\.name))
        try Location.checkRemoteName(text, known: remotes.union(objectRemoteNames))
        return RemotePath.isRemote(text, remotes: remotes)
            ? try RemotePath(parsing: text, defaultRoot: configuration.defaultRoot, remotes: remotes)
            : try RemotePath(root: configuration.defaultRoot, path: text)
    }

    /// What a user typed, parsed once with this front door's remotes' names (``FileModel/Location``).
    public func location(_ text: String, plain: Location.PlainPath = .local) throws(OfficerFilesError) -> Location {
        do {
            return try parsedLocation(text, plain: plain)
        } catch {
            throw OfficerFilesError(error, terms: locationNames, about: text)
        }
    }

    /// The names `NAME:bucket/key` is read with: the configured S3 remotes' and the registered ones'.
    var objectRemoteNames: Set<String> {
        Set(configuration.objectStores.map(\.name)).union(configuration.registeredRemotes.keys)
    }

    /// The same, throwing the parser's own error (the CLI words a bad path as a usage error).
    package func parsedLocation(_ text: String, plain: Location.PlainPath = .local) throws(RemotePathError)
        -> Location
    {
        try Location(
            parsing: text, officerRemotes: Set(configuration.officerRemotes.map(\.name)),
            objectRemotes: objectRemoteNames, defaultRoot: configuration.defaultRoot,
            plain: plain)
    }
}

/// The servers of the named Officer remotes, one per remote.
private final class OtherServers: Sendable {
    private let servers = LockedValue<[String: OfficerServer]>([:])

    func server(for remote: OfficerRemote, make: () -> OfficerServer) -> OfficerServer {
        servers.withLock { servers in
            if let server = servers[remote.name] { return server }
            let server = make()
            servers[remote.name] = server
            return server
        }
    }
}
