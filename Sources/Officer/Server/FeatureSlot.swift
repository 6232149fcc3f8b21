import FileModel
import Foundation

/// The server's features, asked once per server: every thumbnail of a folder would ask otherwise, and
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
