import Foundation

/// A new folder on a side whose folders are implied by what is written inside them (``SyncRemote/impliesFolders``):
/// it costs no request of its own unless the plan puts nothing in it, and it is reported made when the first
/// thing inside it is.
final class SyncImpliedFolder: @unchecked Sendable {
    /// The folder's step, as the plan announced it.
    let action: SyncAction
    /// The plan put something inside (only the planning loop reads and writes it).
    var isFilled = false
    private let lock = NSLock()
    private var isReported = false

    /// A folder the plan announced as `action`.
    init(action: SyncAction) {
        self.action = action
    }

    /// Something inside was written, so the folder exists: reported made to `state`, once.
    func contentWritten(state: SyncState) {
        let first = lock.withLock {
            defer { isReported = true }
            return !isReported
        }
        if first { state.directoryCreated(action) }
    }
}
