/// A wake-up one task waits for and any thread gives: a signal given while no one waits is kept for the next
/// wait, so none is lost between a look and the wait that follows it.
package final class WakeSignal: Sendable {
    private struct State {
        var pending = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = LockedValue(State())

    /// A signal nothing has given yet.
    package init() {}

    /// Wakes the waiter, or the next wait.
    package func fire() {
        state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.pending = true
                return nil
            }
            state.waiter = nil
            return waiter
        }?.resume()
    }

    /// Returns once the signal is given (at once for one given since the last wait), or after `duration` on
    /// `clock`, or when the task is cancelled.
    package func wait(atMost duration: Duration, on clock: any Clock<Duration>) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.wait() }
            group.addTask { try? await clock.sleep(for: duration) }
            await group.next()
            group.cancelAll()
        }
    }

    /// Returns once the signal is given (at once for one given since the last wait), or when the task is cancelled.
    package func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let given = state.withLock { state in
                    if state.pending {
                        state.pending = false
                        return true
                    }
                    // Cancelled already: the handler ran (or runs) with no waiter to resume. Looked at under the lock
                    // the handler takes, so a cancel is either seen here or finds the waiter stored.
                    if Task.isCancelled { return true }
                    state.waiter = continuation
                    return false
                }
                if given { continuation.resume() }
            }
        } onCancel: {
            state.withLock { state in
                defer { state.waiter = nil }
                return state.waiter
            }?.resume()
        }
    }
}
