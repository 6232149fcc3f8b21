import FileModel
import Foundation

/// A sync that stopped before its end, with what it had done: its message says why and what a rerun does.
package struct SyncStopped: Error, Sendable, CustomStringConvertible, CategorizedError {
    /// Why, in the user's terms.
    package var reason: String
    /// What kind of failure stopped it.
    package var category: ErrorCategory
    /// Files transferred before it stopped.
    package var transferred: Int

    /// One line.
    package var description: String {
        "\(reason); the sync stopped after \(CountFormat.string(transferred, "file", "files")): the same command continues"
    }
}

extension SyncState {
    /// How long a server that stopped answering is waited for (the watch's rule: waits doubling up to eight
    /// seconds) before the sync stops.
    static let outageWaits: [Double] = [1, 2, 4, 8]

    /// An operation failed: when the failure is the network's (the server went away), it waits for the server and
    /// says to try again — each wait longer, while the outage is younger than `limit` seconds; every operation
    /// meeting it waits alike, and an answer (``serverAnswered()``) ends it. Past the limit the sync is stopped
    /// (``stop(_:)``) and nothing more is started; false then, and for any other failure.
    func waitForServer(after error: any Error, attempt: Int, limit: Double) async -> Bool {
        guard ErrorCategory.of(error) == .network, !Task.isCancelled, refusal == nil else { return false }
        let now = time.seconds
        let (started, isNew) = outage.withLock { started in
            defer { if started == nil { started = now } }
            return (started ?? now, started == nil)
        }
        if isNew {
            warn(
                "\(OfficerFilesError(error, terms: terms).message): waiting up to \(Int(limit)) s for the server to answer"
            )
        }
        guard now - started < limit else {
            stop(error)
            return false
        }
        let wait = Self.outageWaits[min(attempt, Self.outageWaits.count - 1)]
        try? await clock.sleep(for: .seconds(min(wait, max(0.1, limit - (now - started)))))
        return !Task.isCancelled && refusal == nil
    }

    /// The server answered: an outage is over.
    func serverAnswered() { outage.withLock { $0 = nil } }

    /// A file inside `folder` was not sent because the folder could not be made: counted, and said once per
    /// folder when the sync ends.
    func leftOut(below folder: SyncPath) {
        notSent.withLock { $0[folder.description, default: 0] += 1 }
    }

    /// What ``leftOut(below:)`` counted, as failures (one per folder).
    func reportLeftOut() {
        for (folder, count) in notSent.withLock({ $0 }).sorted(by: { $0.key < $1.key }) {
            fail(
                folder, "sync",
                "\(CountFormat.string(count, "file", "files")) inside not sent: the folder could not be made")
        }
    }
}
