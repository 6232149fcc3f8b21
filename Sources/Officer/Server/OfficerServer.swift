import FileModel
import Foundation
import HTTP
import Journal
import Transfer

/// One Officer server as this process reaches it: its HTTP client (which signs in again once when the server
/// refuses the token), what it offers beyond the seed's endpoints, what its uploads learnt of their endpoints,
/// and the journal and cache it shares with the other servers of its front door. Every operation on an Officer
/// path lives here, so ``OfficerServerRemote`` works on a server without calling back into ``OfficerFiles``;
/// the front door keeps the rules that span remotes (locations, placement, the queue's sending, sync).
package final class OfficerServer: Sendable {
    /// What the front door is set up with, `server` naming this server.
    package let configuration: OfficerFiles.Configuration
    /// The HTTP client every request to this server (and every plain URL of its front door) goes through.
    package let http: HTTPClient
    /// How local paths are kept (``PathAnchors``), shared by every server of a front door.
    package let anchors: PathAnchors
    /// Unfinished transfers, when a journal is configured; opened on first use, so local work (file facts,
    /// archives, images) never opens SQLite.
    package var journal: TransferJournal? {
        get throws(SQLiteError) { try journalSlot.open() }
    }
    let journalSlot: JournalSlot
    let cacheSlot: CacheSlot
    /// What the server says it offers, asked once.
    let featureSlot = FeatureSlot()
    /// What the server offers beyond the seed's endpoints, learnt once for every operation on it and remembered
    /// in the journal for a day.
    let offers: ServerOffers
    /// What every upload to this server learnt of its endpoints (tus or not), so each is asked once.
    let uploadEndpoints = UploadEndpoints()

    /// A server for `configuration.server` keeping local paths by `anchors`, sharing `parent`'s journal and cache
    /// (nil: its own).
    init(configuration: OfficerFiles.Configuration, anchors: PathAnchors, sharing parent: OfficerServer?) {
        self.configuration = configuration
        var settings = configuration.http
        if let server = configuration.server {
            // Every request with the token, whichever operation sent it, signs in again once if the server refuses it.
            settings.credentialRenewal = SessionRenewal(
                server: server, tokens: configuration.tokens, http: HTTPClient(configuration: configuration.http))
        }
        http = HTTPClient(configuration: settings)
        self.anchors = anchors
        let journalSlot =
            parent?.journalSlot
            ?? JournalSlot(path: configuration.journalPath, anchors: self.anchors, onWarning: configuration.onWarning)
        self.journalSlot = journalSlot
        offers = Self.offers(of: configuration, remembered: journalSlot)
        cacheSlot =
            parent?.cacheSlot ?? CacheSlot(directory: configuration.cacheDirectory, limit: configuration.cacheLimit)
    }

    /// The server's offers, remembered in the journal when there is one.
    private static func offers(of configuration: OfficerFiles.Configuration, remembered journalSlot: JournalSlot)
        -> ServerOffers
    {
        guard let server = configuration.server, configuration.journalPath != nil else { return ServerOffers() }
        return ServerOffers(
            memory: ServerOffers.Memory(
                load: { (try? journalSlot.open()?.serverOffers(for: server, maxAge: ServerOffers.maxAge)) ?? [:] },
                save: { proposal, offered in
                    try? journalSlot.open()?.rememberServerOffer(proposal, offered: offered, for: server)
                }))
    }

    /// Passes a warning on to the configuration's `onWarning`.
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
    func baseURL() throws(FrontDoorRefusal) -> String {
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

    /// The cache, or ``FrontDoorRefusal/noCache`` when none is configured (what pinning and the cache's own
    /// commands need).
    func configuredCache() throws -> ContentCache {
        guard let cache = try cache() else { throw FrontDoorRefusal.noCache }
        return cache
    }

    /// `error` as the front door tells it: one line in the user's terms.
    func report(_ error: any Error) -> OfficerFilesError {
        OfficerFilesError(error, terms: LocationNames(configuration: configuration))
    }

    /// The cache key of one kind of content of `path`, for the account this server's token acts as.
    func cacheKey(_ path: RemotePath, kind: String) throws(FrontDoorRefusal) -> CacheKey {
        CacheKey(server: try client.accountIdentity, root: path.root, path: path.path, kind: kind)
    }

    /// The token, scoped to `url` (sent only where it belongs).
    func credential(for url: String) -> BearerCredential? { (try? client)?.credential?.scoped(to: url) }
}
