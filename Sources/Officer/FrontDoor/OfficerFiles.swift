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
/// Long operations (downloads, uploads) return a ``FileModel/TransferOperation``: iterate it for ``FileModel/TransferEvent``s,
/// await its `value` for the result; cancelling stops the work.
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
        /// The `User-Agent` every request sends (`officer-files`): an app names itself and its version.
        public var userAgent: String {
            get { http.userAgent }
            set { http.userAgent = newValue }
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
    /// The HTTP client every request goes through.
    package let http: HTTPClient
    /// How local paths are kept: relative to the declared base folders and to the folders this front door keeps
    /// its own files in (prepared copies, staged downloads), each found again wherever it is declared next run.
    package let anchors: PathAnchors
    /// Unfinished transfers, when a journal is configured; opened on first use, so local work (file facts,
    /// archives, images) never opens SQLite.
    package var journal: TransferJournal? {
        get throws(SQLiteError) { try journalSlot.open() }
    }
    private let journalSlot: JournalSlot
    private let cacheSlot: CacheSlot
    /// What the server says it offers, asked once.
    let featureSlot = FeatureSlot()
    /// What the server offers beyond the seed's endpoints, learnt once for every operation of this front door and
    /// remembered in the journal for a day.
    let offers: ServerOffers
    /// What every upload of this front door learnt of its endpoints (tus or not), so each is asked once.
    let uploadEndpoints = UploadEndpoints()
    /// Folders listed whole for paging, kept for a cursor's life.
    let listingMemo: ListingMemo

    /// The front doors of the named Officer remotes, made on first use.
    private let doors = OtherServers()

    /// Sets up the parts; the journal and the cache open on first use.
    public convenience init(configuration: Configuration) throws(OfficerFilesError) {
        self.init(configuration: configuration, sharing: nil)
    }

    /// A front door for `configuration`'s server that shares `parent`'s journal and cache (a named remote's).
    private init(configuration: Configuration, sharing parent: OfficerFiles?) {
        self.configuration = configuration
        listingMemo = ListingMemo(clock: configuration.http.clock)
        var settings = configuration.http
        if let server = configuration.server {
            // Every request with the token, whichever operation sent it, signs in again once if the server refuses it.
            settings.credentialRenewal = SessionRenewal(
                server: server, tokens: configuration.tokens, http: HTTPClient(configuration: configuration.http))
        }
        http = HTTPClient(configuration: settings)
        let anchors = parent?.anchors ?? Self.anchors(for: configuration)
        self.anchors = anchors
        let journalSlot =
            parent?.journalSlot
            ?? JournalSlot(path: configuration.journalPath, anchors: anchors, onWarning: configuration.onWarning)
        self.journalSlot = journalSlot
        if let server = configuration.server, configuration.journalPath != nil {
            offers = ServerOffers(
                memory: ServerOffers.Memory(
                    load: { (try? journalSlot.open()?.serverOffers(for: server, maxAge: ServerOffers.maxAge)) ?? [:] },
                    save: { proposal, offered in
                        try? journalSlot.open()?.rememberServerOffer(proposal, offered: offered, for: server)
                    }))
        } else {
            offers = ServerOffers()
        }
        cacheSlot =
            parent?.cacheSlot ?? CacheSlot(directory: configuration.cacheDirectory, limit: configuration.cacheLimit)
    }

    /// The declared base folders and this front door's own: `prepared` (copies of images waiting for their upload)
    /// and `staging` (a sync's downloads before they take their names); a declared folder of the same name wins.
    private static func anchors(for configuration: Configuration) -> PathAnchors {
        var folders = ["prepared": preparedFolder(configuration), "staging": stagingFolder(configuration)]
        folders.merge(configuration.baseFolders) { _, declared in declared }
        return PathAnchors(folders)
    }

    /// The front door of the Officer remote `name` (nil: this one), sharing this one's journal, cache and settings.
    package func door(_ name: String?) throws -> OfficerFiles {
        guard let name, name != "officer" else { return self }
        guard let remote = configuration.officerRemotes.first(where: { $0.name == name }) else {
            throw FrontDoorRefusal.invalidValue("\(name): no such remote")
        }
        if remote.server == configuration.server { return self }
        return try doors.door(for: remote) {
            var configuration = self.configuration
            configuration.server = remote.server
            return OfficerFiles(configuration: configuration, sharing: self)
        }
    }

    /// The API client of the Officer remote `name` (nil: this front door's server).
    func client(remote name: String?) throws -> OfficerClient { try door(name).client }

    /// Passes a warning on to ``Configuration/onWarning``.
    func warn(_ message: String) { configuration.onWarning?(message) }

    /// True when no request is made (``HTTPClientConfiguration/offline``).
    package var isOffline: Bool { configuration.http.offline }

    /// The API client for the server, with the token the store holds for it now (read on each use, so a sign-in
    /// or sign-out through any front door sharing the store takes effect at once).
    package var client: OfficerClient {
        get throws(FrontDoorRefusal) {
            guard let server = configuration.server else { throw .noServer }
            var client = OfficerClient(
                server: server, token: configuration.tokens.token(for: server), http: http, offers: offers)
            client.remoteName = configuration.officerRemotes.first { $0.server == server }?.name
            return client
        }
    }

    /// The error that ends an unattended run once the server refuses the token and no sign-in could replace it
    /// (none kept, or it failed: then why), whatever error `cause` the refusal came as.
    func tokenRejected(_ cause: (any Error)? = nil) -> any Error {
        if let cause, case OfficerError.notSignedIn = cause { return cause }
        guard let client = try? client else { return cause ?? FrontDoorRefusal.noServer }
        return OfficerError.notSignedIn(
            server: client.server, reason: client.refusal("the server no longer accepts the token"))
    }

    /// The server's base URL, or `FrontDoorRefusal/noServer`.
    func server() throws(FrontDoorRefusal) -> String {
        guard let server = configuration.server else { throw .noServer }
        return server
    }

    /// The content cache; nil when none is configured. Opening it repairs what an interrupted run left
    /// (``ContentCache/openingReport``).
    package func cache() throws(CacheError) -> ContentCache? { try cacheSlot.open() }

    /// The cache for operations that only gain from it: a cache that cannot be opened is not used (a broken
    /// cache must never stop a download), except offline, where it is the only source.
    func usableCache() throws(CacheError) -> ContentCache? {
        if isOffline { return try cache() }
        return try? cache()
    }

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

    /// The cache key of one kind of content of `path`, for the account this front door acts as.
    func cacheKey(_ path: RemotePath, kind: String) throws(FrontDoorRefusal) -> CacheKey {
        CacheKey(server: try client.accountIdentity, root: path.root, path: path.path, kind: kind)
    }
}

/// The front doors of other servers, one per remote.
private final class OtherServers: Sendable {
    private let doors = LockedValue<[String: OfficerFiles]>([:])

    func door(for remote: OfficerRemote, make: () throws -> OfficerFiles) throws -> OfficerFiles {
        try doors.withLock { doors in
            if let door = doors[remote.name] { return door }
            let door = try make()
            doors[remote.name] = door
            return door
        }
    }
}

/// The journal, opened once on first use and shared by every operation; a damaged one it replaced is told as a
/// warning, once.
private final class JournalSlot: Sendable {
    private let path: String?
    private let anchors: PathAnchors
    private let onWarning: (@Sendable (String) -> Void)?
    private let opened = LockedValue<TransferJournal?>(nil)

    init(path: String?, anchors: PathAnchors, onWarning: (@Sendable (String) -> Void)?) {
        self.path = path
        self.anchors = anchors
        self.onWarning = onWarning
    }

    func open() throws(SQLiteError) -> TransferJournal? {
        let (path, anchors) = (path, anchors)
        let opening = opened.withLock { opened -> Result<(TransferJournal?, isNew: Bool), SQLiteError> in
            if let opened { return .success((opened, false)) }
            guard let path else { return .success((nil, false)) }
            do throws(SQLiteError) {
                let journal = try TransferJournal(path: path, anchors: anchors)
                opened = journal
                return .success((journal, true))
            } catch {
                return .failure(error)
            }
        }
        let (journal, isNew) = try opening.get()
        if isNew, let recovery = journal?.openingReport { onWarning?(recovery.description) }
        return journal
    }
}

/// The cache, opened once on first use and shared by every operation.
private final class CacheSlot: Sendable {
    private let directory: String?
    private let limit: Int64
    private let opened = LockedValue<ContentCache?>(nil)

    init(directory: String?, limit: Int64) {
        self.directory = directory
        self.limit = limit
    }

    func open() throws(CacheError) -> ContentCache? {
        let (directory, limit) = (directory, limit)
        let opening = opened.withLock { opened -> Result<ContentCache?, CacheError> in
            if let opened { return .success(opened) }
            guard let directory else { return .success(nil) }
            do throws(CacheError) {
                let cache = try ContentCache(directory: directory, limit: limit)
                opened = cache
                return .success(cache)
            } catch {
                return .failure(error)
            }
        }
        return try opening.get()
    }
}

/// The server's features, asked once per front door: every thumbnail of a folder would ask otherwise, and
/// several asking at once share the one request. A failed request is not kept (the next use asks again).
final class FeatureSlot: Sendable {
    private let pending = LockedValue<Task<Set<String>?, Never>?>(nil)

    func get(_ load: @escaping @Sendable () async -> Set<String>?) async -> Set<String> {
        let task = pending.withLock { pending in
            if let pending { return pending }
            let task = Task { await load() }
            pending = task
            return task
        }
        if let features = await task.value { return features }
        pending.withLock { if $0 == task { $0 = nil } }
        return []
    }
}
