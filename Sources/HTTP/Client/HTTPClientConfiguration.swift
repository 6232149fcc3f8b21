import FileModel

/// Settings shared by every request an ``HTTPClient`` makes.
package struct HTTPClientConfiguration: Sendable {
    /// The engine a new configuration starts with: URLSession's unless a plug-in was installed (the CLI and Linux
    /// apps install libcurl's).
    package static let defaultEngine = PluginSlot<any HTTPEngine>(URLSessionEngine.shared)

    /// What carries each attempt: ``defaultEngine`` when the configuration was made, unless changed.
    package var engine: any HTTPEngine = HTTPClientConfiguration.defaultEngine.value
    /// Seconds allowed to establish a connection.
    package var connectTimeout: Double = 15
    /// A transfer moving less than 1 byte/s for this many seconds is aborted as stalled.
    package var stallTimeout: Double = 30
    /// A transfer averaging less than this many bytes per second over ``lowSpeedWindow`` fails: a server that
    /// trickles (a byte every second, an entry every few hundred milliseconds) cannot hold a command forever.
    package var lowSpeedLimit = 1024
    /// The window ``lowSpeedLimit`` is measured over, in seconds. A request whose server may think longer before
    /// answering (a remote action) needs a window at least that long.
    package var lowSpeedWindow: Double = 60
    /// No network at all: every request fails before a connection is made (``HTTPError/offline(request:)``).
    /// Enforced here, where every request passes, so no operation can forget it.
    package var offline = false
    /// Seconds the whole transfer may take; nil for no limit (large files).
    package var totalTimeout: Double?
    /// Redirects followed at most.
    package var maxRedirects = 5
    /// Turn TLS verification off (`--insecure`); the only way to do so.
    package var insecure = false
    /// A PEM bundle of trusted CAs (`--cacert`).
    package var caCertificatePath: String?
    /// The servers' public keys trusted, each `sha256//` and the base64 SHA-256 of the key's DER
    /// (SubjectPublicKeyInfo), as curl's `--pinnedpubkey` takes them: when any is given, a server whose key is none
    /// of them is refused, whatever its certificate (checked as well).
    package var pinnedPublicKeys: [String] = []
    /// Whether a bulk request (``HTTPRequest/isBulk``: a body or a download larger than one flow-control window)
    /// may go as an HTTP/2 stream where the server offers HTTP/2. Off, bulk bytes take HTTP/1.1 connections of
    /// their own: a stream's window, at a round trip of tens of milliseconds, caps an upload far below the link
    /// (bench/h2: a 100 MiB put through nginx took 11.8 times as long), and parallel ranges would share one TCP
    /// connection. Small requests negotiate either way (many small files multiplexed on one connection were
    /// faster).
    package var bulkOverHTTP2 = false
    /// A limit every request of the clients made with this configuration keeps together (`--bwlimit` on a sync,
    /// a copy or a watch); a request's own limit (``HTTPRequest/maxReceiveBytesPerSecond``) comes first.
    package var bandwidth: SharedBandwidth?
    /// Retry schedule for idempotent requests.
    package var retry = RetryPolicy()
    /// What waits and intervals are measured on (backoff, `Retry-After`, job polling): the continuous clock in use,
    /// a manual one in tests, so no test waits for time to pass.
    package var clock: any Clock<Duration> = ContinuousClock()
    /// What this configuration's answers say of the link (round trip, answers asking to slow down), measured on
    /// ``clock``; shared by its copies.
    package var linkMeter = LinkMeter()
    /// The User-Agent sent.
    package var userAgent = "officer-files"
    /// Renews a request's credential after a 401 and sends the request once more; nil: a 401 is the answer.
    package var credentialRenewal: (any CredentialRenewal)?
    /// Signs every request to its origin (an S3 store's keys); nil signs nothing.
    package var signer: (any RequestSigner)?
    /// Receives one line per request and response for `-v`; secrets are already redacted.
    package var log: (@Sendable (String) -> Void)?

    /// The defaults: verification on, 15 s connect, 30 s stall, 5 redirects, 4 attempts.
    package init() {}
}
