#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open file descriptor this object owns: opened through ``SystemCalls/open(_:_:mode:)`` (close-on-exec,
/// retried after an interruption) and closed exactly once, when the object goes or ``close()`` is called, so
/// no path leaks a descriptor or closes one twice (a number another thread may have been given since).
///
/// Swift may end an object's life right after its last use, which can be the read of ``descriptor``: a caller
/// that goes on using the number keeps the object alive (`defer { withExtendedLifetime(file) {} }`).
package final class OpenFile: @unchecked Sendable {  // The descriptor changes once, closed by its one owner.
    /// The descriptor, for the calls that take one; -1 once closed.
    package private(set) var descriptor: Int32

    /// Why a file could not be opened: the error number, in words by its `description`.
    package typealias Failure = SystemCalls.Errno

    /// Opens `path` with `flags` (and `mode` when it is created).
    package init(_ path: String, _ flags: Int32, mode: mode_t = 0o644) throws(Failure) {
        let descriptor = SystemCalls.open(path, flags, mode: mode)
        guard descriptor >= 0 else { throw Failure(code: errno) }
        self.descriptor = descriptor
    }

    /// Closes it now (once; later calls do nothing). False when `close` reported an error: for a file just
    /// written, a write the kernel could not complete.
    @discardableResult
    package func close() -> Bool {
        guard descriptor >= 0 else { return true }
        // Not retried after EINTR: on Linux the descriptor is already released, and retrying could close another.
        #if canImport(Glibc)
            let result = Glibc.close(descriptor)
        #else
            let result = Darwin.close(descriptor)
        #endif
        descriptor = -1
        return result == 0
    }

    deinit { close() }
}
