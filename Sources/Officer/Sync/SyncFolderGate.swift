import Foundation

/// A folder a sync is making while it goes on planning: the work inside it waits here until the folder is made
/// (true) or could not be (false), so folders cost no round trip of their own in the plan's order.
final class SyncFolderGate: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Bool?
    private var waiting: [CheckedContinuation<Bool, Never>] = []

    /// Whether the folder was made; nil while that is not known.
    var made: Bool? { lock.withLock { result } }

    /// Tells every waiter (and later ones) whether the folder was made; said once.
    func open(_ made: Bool) {
        let woken = lock.withLock { () -> [CheckedContinuation<Bool, Never>] in
            guard result == nil else { return [] }
            result = made
            defer { waiting = [] }
            return waiting
        }
        for continuation in woken { continuation.resume(returning: made) }
    }

    /// Waits until ``open(_:)`` is called.
    func wait() async -> Bool {
        await withCheckedContinuation { continuation in
            let known = lock.withLock { () -> Bool? in
                if let result { return result }
                waiting.append(continuation)
                return nil
            }
            if let known { continuation.resume(returning: known) }
        }
    }
}
