import FileModel
import Foundation

/// A folder a sync is making while it goes on planning: the work inside it waits here until the folder is made
/// (true) or could not be (false), so folders cost no round trip of their own in the plan's order.
final class SyncFolderGate: Sendable {
    private struct Gate {
        var result: Bool?
        var waiting: [CheckedContinuation<Bool, Never>] = []
    }
    private let gate = LockedValue(Gate())

    /// Whether the folder was made; nil while that is not known.
    var made: Bool? { gate.withLock { $0.result } }

    /// Tells every waiter (and later ones) whether the folder was made; said once.
    func open(_ made: Bool) {
        let woken = gate.withLock { gate -> [CheckedContinuation<Bool, Never>] in
            guard gate.result == nil else { return [] }
            gate.result = made
            defer { gate.waiting = [] }
            return gate.waiting
        }
        for continuation in woken { continuation.resume(returning: made) }
    }

    /// Waits until ``open(_:)`` is called.
    func wait() async -> Bool {
        await withCheckedContinuation { continuation in
            let known = gate.withLock { gate -> Bool? in
                if let result = gate.result { return result }
                gate.waiting.append(continuation)
                return nil
            }
            if let known { continuation.resume(returning: known) }
        }
    }
}
