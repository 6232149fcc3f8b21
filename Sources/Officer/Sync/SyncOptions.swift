import FileModel
import HTTP
import Transfer

/// Which way a sync goes.
///
/// Its cases are all there will be: a `switch` over it needs no `default`.
public enum SyncDirection: String, Sendable, Codable {
    /// Local folder → server.
    case push
    /// Server → local folder.
    case pull
}

/// How a sync runs.
public struct SyncOptions: Sendable {
    /// Local → server or server → local.
    public var direction: SyncDirection
    /// Remove what the destination has and the source does not — after all transfers, and only if none failed.
    public var deleteExtraneous = false
    /// Refuse to delete more than this many entries (the whole deletion, before any of it happens).
    public var maxDelete: Int?
    /// How files are compared.
    package var comparison = SyncComparison.sizeAndTime
    /// Seconds a server that stopped answering is waited for (each failing transfer waits and is tried again)
    /// before the sync stops; 0 stops at the first failure the network causes.
    public var serverWaitLimit: Double = 60
    /// What the waits for a server gone, and the outage's age, are measured on (a manual clock in tests).
    package var clock: any Clock<Duration> = ContinuousClock()
    /// Plan only: report what would be done and change nothing.
    public var dryRun = false
    /// Files transferred at once; nil (the default) chooses by size: many while files are small (a round trip
    /// decides their time: up to 64 at once), four at once while they are 15 MiB or more.
    public var transfers: Int?
    /// At most this many of each side's transfers at once, within ``transfers`` (`source`: fetches from it;
    /// `destination`: sends to it); nil: no limit of that side's own. A side's limit caps that side only: a staged
    /// copy goes on fetching while a slow destination sends. It counts files, not connections: a large file's
    /// parallel ranges and an Officer download's checksum question go beside its transfer.
    public var transfersPerSide: (source: Int?, destination: Int?) = (nil, nil)
    /// Comparisons that must ask the remote (an object's time, a checksum) running at once.
    public var checkers = 16
    /// Which paths take part.
    package var filter = SyncFilter()
    /// Follow symbolic links in the local folder instead of skipping them.
    public var followSymlinks = false
    /// On push: images (JPEG, PNG, WebP, HEIC/HEIF, GIF, TIFF) are prepared with these settings before they go
    /// up (resized, re-encoded, metadata stripped; HEIC arrives as `.jpg`), and compared by modification time
    /// only; nil sends every file as it is.
    public var preparingImages: ImagePreparationOptions?
    /// With ``preparingImages``: a damaged image goes up unchanged (told through the configuration's
    /// `onWarning`) instead of failing, unless it carries a position preparing would have stripped.
    public var bestEffortImages = false
    /// The hooks ``preparingImages`` becomes (the CLI sets its own, to word the warnings).
    package var imagePreparation: SyncImagePreparation?
    /// On push: a file that has not settled by this rule (changed since it was listed, or less than its
    /// seconds ago) is not sent but reported as ``SyncEvent/deferred(_:)``, for a caller that sends it once it
    /// settles (the watcher's catch-up); nil sends every file as it is.
    package var settle: SettleRule?

    /// Options for one direction, the rest default.
    public init(direction: SyncDirection) { self.direction = direction }
}

/// Image preparation applied on push (`sync --resize`).
package struct SyncImagePreparation: Sendable {
    /// The uploaded name for a local name, or nil when the file is not prepared.
    package var uploadedName: @Sendable (String) -> String?
    /// Prepares a local image; returns the file to upload.
    package var prepare: @Sendable (String) async throws -> String

    /// Creates the hooks.
    package init(
        uploadedName: @escaping @Sendable (String) -> String?,
        prepare: @escaping @Sendable (String) async throws -> String
    ) {
        self.uploadedName = uploadedName
        self.prepare = prepare
    }
}

/// One thing a sync does (or, in a dry run, would do).
public struct SyncAction: Sendable, Equatable, Codable {
    /// What kind of step.
    ///
    /// Cases may be added in a later version: a `switch` over it keeps a `default`.
    public enum Kind: String, Sendable, Codable {
        /// Send a file to the server.
        case upload
        /// Fetch a file from the server.
        case download
        /// Create a folder on the destination.
        case makeDirectory = "mkdir"
        /// Remove from the destination.
        case delete
        /// Only the modification time differs (the content is the same): set it.
        case setTime = "set-time"
    }

    /// The step.
    public var kind: Kind
    /// The path, relative to the sync's roots.
    public var path: String
    /// Bytes moved (0 for other steps).
    public var bytes: Int64
    /// Why: `new`, `changed`, `extraneous`, `same content`.
    public var reason: String
    /// For a file fetched onto this machine, what its bytes were checked against before they took their name:
    /// the strongest validator the remote offered (``Transfer/ContentCheck/size`` alone says it offered no digest); nil
    /// for other steps.
    public var checked: ContentCheck? = nil
}

/// A step that failed, with its path.
public struct SyncFailure: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The path, relative to the sync's roots (or the root's own name).
    public var path: String
    /// What was being done.
    public var operation: String
    /// Why it failed.
    public var message: String
    /// The failure's category, when it came from an error that states one (a rejected token: authentication).
    public var category: ErrorCategory?

    private enum CodingKeys: String, CodingKey { case path, operation, message }

    /// `path: operation failed: message`.
    public var description: String { "\(path.isEmpty ? "." : path): \(operation): \(message)" }
}

/// What happens while a sync runs.
///
/// Cases may be added in a later version: a `switch` over it keeps a `default`.
public enum SyncEvent: Sendable {
    /// A step was decided (in a dry run, this is the plan).
    case planned(SyncAction)
    /// A step finished; never in a dry run, which takes none.
    case done(SyncAction)
    /// Bytes moved so far in one transfer.
    case progress(path: String, bytes: Int64, total: Int64)
    /// A step failed.
    case failed(SyncFailure)
    /// Something skipped (a link, a special file).
    case warning(String)
    /// A file left for later because it has not settled (`SyncOptions/settle`): its path relative to the
    /// local root, as the local file is named.
    case deferred(String)
}

/// The closing account of a sync.
public struct SyncReport: Sendable, Codable, Equatable {
    /// Push or pull.
    public var direction: SyncDirection
    /// Nothing was changed.
    public var dryRun: Bool
    /// Files transferred (or that would be, in a dry run).
    public var transferred = 0
    /// Their bytes.
    public var bytes: Int64 = 0
    /// Files already the same.
    public var unchanged = 0
    /// Folders created.
    public var directoriesCreated = 0
    /// Entries deleted (or that would be); a deleted folder counts with everything in it.
    public var deleted = 0
    /// Entries found only on the destination.
    public var extraneous = 0
    /// Modification times set where only they differed.
    public var timesSet = 0
    /// Entries skipped with a warning (links, special files).
    public var warnings = 0
    /// What failed: the first ``listedFailureLimit``; the rest are only counted in ``unlistedFailures``.
    public var failures: [SyncFailure] = []
    /// Failures past the first ``listedFailureLimit``: counted, not kept, so a server sending endless bad names
    /// cannot grow the report without bound.
    public var unlistedFailures = 0
    /// How many failures a report keeps.
    public static let listedFailureLimit = 1000
    /// Why deletions were not done, when they were not.
    public var deletionsSkipped: String?
    /// Seconds the sync took.
    public var seconds: Double = 0
    /// Transfers the sync's own cancellation cut short (Ctrl-C), nil when it was not cancelled: an interruption,
    /// which a rerun continues, not a failure of each file.
    package var interruptedTransfers: Int?

    /// Files received checked by their size alone (the remote offers no checksum): a byte damaged on the way
    /// would have gone unnoticed.
    package var checkedBySizeOnly = 0

    /// Failures in all, listed or not.
    public var failureCount: Int { failures.count + unlistedFailures }

    /// Whether everything asked for was done.
    public var succeeded: Bool { failures.isEmpty && deletionsSkipped == nil }
}
