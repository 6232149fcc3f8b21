import Foundation

/// Waits for a condition by polling, so tests that interrupt a transfer midway do it once the transfer
/// has really got somewhere, however busy the machine is.
public enum Eventually {
    /// Polls `condition` every 20 ms for up to `timeout` seconds; returns whether it became true.
    ///
    /// The polling runs on a thread of its own, not on Swift's cooperative pool: with two cores that pool has two
    /// threads, and a parallel test blocking them (hashing thousands of files, a synchronous `vips`) would
    /// otherwise delay the polls past the whole transfer they are meant to catch midway.
    @discardableResult
    public static func wait(
        timeout: Double = 30, every interval: Double = 0.02, _ condition: @escaping @Sendable () throws -> Bool
    ) async -> Bool {
        await wait(timeout: timeout, every: interval, condition) {}
    }

    /// Like ``wait(timeout:_:)``, and sends `signal` to `processes` from the polling thread the moment the
    /// condition holds: the interruption lands where it was meant to, not whenever the test gets a thread back.
    @discardableResult
    public static func signal(
        _ signal: Int32, to processes: [Process], timeout: Double = 30,
        when condition: @escaping @Sendable () throws -> Bool
    ) async -> Bool {
        let identifiers = processes.map(\.processIdentifier)
        return await wait(timeout: timeout, condition, then: { for pid in identifiers { kill(pid, signal) } })
    }

    /// Like ``wait(timeout:_:)``, and runs `action` on the polling thread the moment the condition holds (an edit
    /// meant to land while a transfer runs lands then, not whenever the test gets a thread back).
    public static func wait(
        timeout: Double = 30, every interval: Double = 0.02, _ condition: @escaping @Sendable () throws -> Bool,
        then action: @escaping @Sendable () -> Void
    ) async -> Bool {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let held = blocking(timeout: timeout, every: interval, condition)
                if held { action() }
                continuation.resume(returning: held)
            }
        }
    }

    /// Polls `condition` on the calling thread every `interval` seconds (20 ms; a sampler that watches for a
    /// short-lived state polls faster) for up to `timeout` seconds; whether it became true.
    /// For code that already runs on a thread of its own (starting or stopping a server, a tmux command).
    ///
    /// The one sleep of the tests' waits: every wait for an outside process (a server that starts, a screen
    /// that shows a line, a count that settles) polls here, bounded by its timeout; a wait for something in
    /// this process awaits the event itself. (One wait lives outside this process: the watcher that types a
    /// terminal test's Ctrl-C, ``TerminalSession``, polls the screen from a process of its own.)
    @discardableResult
    public static func blocking(timeout: Double, every interval: Double = 0.02, _ condition: () throws -> Bool) -> Bool
    {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if (try? condition()) == true { return true }
            guard Date() < deadline else { return false }
            usleep(useconds_t(interval * 1e6))
        }
    }
}

extension Eventually {
    /// Waits until no one holds the `flock` on `path` (a download's temp file): a process another test spawns at
    /// the moment a download ends inherits its descriptor until it runs its program, and holds the lock that long.
    @discardableResult
    public static func unlocked(_ path: String, timeout: Double = 30) async -> Bool {
        await wait(timeout: timeout) {
            let descriptor = open(path, O_RDWR | O_CLOEXEC)
            guard descriptor >= 0 else { return true }
            defer { close(descriptor) }
            return flock(descriptor, LOCK_EX | LOCK_NB) == 0
        }
    }
}
