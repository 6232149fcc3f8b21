import Foundation

/// A producer that takes its time, for the tests whose subject is one seen by another process: a watcher must not
/// send a file still being written, `put -` must show a trickling pipe's progress as it flows. The tests' one
/// pacer: every paced write goes through it, on a thread of its own, bounded by its step count.
public enum SlowWriter {
    /// Runs `step` with 0, 1, 2… on a new thread, pausing `pause` seconds after each, until it returns false or
    /// `maxSteps` ran; then `done`.
    @discardableResult
    public static func start(
        pause: Double, maxSteps: Int = 10_000, _ step: @escaping @Sendable (Int) -> Bool,
        done: @escaping @Sendable () -> Void = {}
    ) -> Thread {
        let thread = Thread {
            var index = 0
            while index < maxSteps, step(index) {
                index += 1
                usleep(useconds_t(pause * 1e6))
            }
            done()
        }
        thread.start()
        return thread
    }
}
