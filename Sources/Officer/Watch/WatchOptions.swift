import FileModel
import Foundation

/// How a watched folder goes up.
package struct WatchOptions: Sendable {
    /// Seconds a file's size and modification time must stay unchanged (and its writer have closed it) before
    /// it goes up.
    package var settleSeconds = 2.0
    /// A file its writer keeps open goes up anyway once unchanged for this long (a log that is never closed).
    package var openFileSettleSeconds = 60.0
    /// Which files go (the paths relative to the watched folder).
    package var filter = SyncFilter()
    /// Remove each local file once the server's SHA-256 of it matched the bytes sent (never a prepared image:
    /// the server holds another file).
    package var deleteAfterUpload = false
    /// Images prepared before they go up (the sync's `--resize`), or nil.
    package var imagePreparation: SyncImagePreparation?
    /// The longest wait between two attempts while the server cannot be reached.
    package var maxBackoffSeconds = 60.0

    /// Defaults: 2 s settle, everything, nothing deleted.
    package init() {}

    /// The settle rule these times make, for the live events and the catch-up alike.
    package var settleRule: SettleRule { SettleRule(seconds: settleSeconds, openSeconds: openFileSettleSeconds) }
}

/// What a watch reports.
package enum WatchEvent: Sendable, Equatable {
    /// The catch-up pass (a `copy` of the whole folder, for what changed while nothing watched) ended.
    case caughtUp(uploaded: Int, failed: Int)
    /// A file went up; `settled` is the time from its last change seen to the upload's end.
    case uploaded(local: String, remote: RemotePath, bytes: Int64, settled: Double)
    /// A settled file the server already had as it is.
    case unchanged(local: String)
    /// A local file removed after the server's checksum matched.
    case deletedLocal(String)
    /// The server cannot be reached; the next attempt is in `retryIn` seconds.
    case waiting(reason: String, retryIn: Double)
    /// A file that could not go up (it stays until it changes again).
    case failed(local: String, reason: String)
}
