import Foundation

/// A value shared between threads and tasks, reached only while its lock is held (swift-nio's `NIOLockedValueBox`):
/// the one place a lock and `@unchecked Sendable` meet, so the types that share state need neither. The standard
/// `Mutex` needs iOS 18 / macOS 15, newer than the platforms this library supports.
package final class LockedValue<Value>: @unchecked Sendable {  // Sendable by the lock: every access holds it.
    private let lock = NSLock()
    private var value: Value

    /// A box holding `value`.
    package init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, the lock held; what it returns is returned.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A copy of the value as it is now.
    package var current: Value { withLock { $0 } }
}
