import FileModel
import Foundation

/// A new folder on a side whose folders are implied by what is written inside them (``SyncRemote/impliesFolders``):
/// it costs no request of its own unless the plan puts nothing in it, and it is reported made when the first
/// thing inside it is.
final class SyncImpliedFolder: Sendable {
    /// The folder's step, as the plan announced it.
    let action: SyncAction
    private let filled = LockedValue(false)
    private let reported = LockedValue(false)

    /// The plan put something inside.
    var isFilled: Bool {
        get { filled.current }
        set { filled.withLock { $0 = newValue } }
    }

    /// A folder the plan announced as `action`.
    init(action: SyncAction) {
        self.action = action
    }

    /// Something inside was written, so the folder exists: reported made to `state`, once.
    func contentWritten(state: SyncState) {
        let first = reported.withLock { isReported in
            defer { isReported = true }
            return !isReported
        }
        if first { state.directoryCreated(action) }
    }
}
