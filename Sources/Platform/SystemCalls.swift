#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The platform's C library, reached from one place (swift-system's model): what Glibc and Darwin spell
/// differently is spelled here once, and every call that can be interrupted by a signal is retried here once.
package enum SystemCalls {
    /// Runs `call` again while it fails with `EINTR`; its result otherwise.
    @inline(__always)
    package static func retryingInterrupts<Result: FixedWidthInteger>(_ call: () -> Result) -> Result {
        while true {
            let result = call()
            if result != -1 || errno != EINTR { return result }
        }
    }

    /// Opens `path` (`O_CLOEXEC` always added); -1 and `errno` on failure.
    package static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o644) -> Int32 {
        retryingInterrupts { () -> Int32 in
            #if canImport(Glibc)
                Glibc.open(path, flags | O_CLOEXEC, mode)
            #else
                Darwin.open(path, flags | O_CLOEXEC, mode)
            #endif
        }
    }

    /// Writes all of `bytes` to `descriptor`, again after an interruption or a short write; the error number if it
    /// failed.
    package static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = retryingInterrupts { () -> Int in
                #if canImport(Glibc)
                    Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                #else
                    Darwin.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                #endif
            }
            if written < 0 { return errno }
            offset += written
        }
        return nil
    }

    /// Reads from `descriptor` until `buffer` is full or the file ends, again after an interruption or a short
    /// read: the bytes read, or the error number if a read failed.
    package static func readFully(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno>
    {
        var filled = 0
        while filled < buffer.count {
            let count = retryingInterrupts { () -> Int in
                #if canImport(Glibc)
                    Glibc.read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
                #else
                    Darwin.read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
                #endif
            }
            if count < 0 { return .failure(Errno(code: errno)) }
            if count == 0 { break }
            filled += count
        }
        return .success(filled)
    }

    /// An error number as an `Error`, in the C library's words.
    package struct Errno: Error, Sendable, Equatable, CustomStringConvertible {
        /// The `errno` value.
        package var code: Int32
        /// The error `code` names.
        package init(code: Int32) { self.code = code }
        /// The C library's words for it (`Permission denied`).
        package var description: String { String(cString: strerror(code)) }
    }

    /// Whether ``preallocate(_:length:)`` may run while other threads write into the file: Linux's `fallocate`
    /// only allocates what is not yet and never moves the end below `length`; Darwin's `F_PREALLOCATE` counts from
    /// the file's physical end, which those writes move.
    #if canImport(Glibc)
        package static let preallocatesBesideWrites = true
    #else
        package static let preallocatesBesideWrites = false
    #endif

    /// Reserves `length` bytes of disk for `descriptor` so later writes anywhere below it cannot fail for space;
    /// 0 on success, else an error number (a file system that cannot reserve: the caller sets the length instead).
    package static func preallocate(_ descriptor: Int32, length: Int64) -> Int32 {
        #if canImport(Glibc)
            // fallocate(2) itself, never posix_fallocate: on a file system without it (ext2, exFAT, NFSv3) glibc's
            // posix_fallocate writes every block of the length, a download's whole size before its first byte.
            guard let fallocate = LinuxFallocate.function else { return ENOSYS }
            return retryingInterrupts { fallocate(descriptor, 0, 0, off_t(length)) } == 0 ? 0 : errno
        #else
            var store = fstore_t(
                fst_flags: UInt32(F_ALLOCATEALL), fst_posmode: F_PEOFPOSMODE, fst_offset: 0, fst_length: off_t(length),
                fst_bytesalloc: 0)
            if fcntl(descriptor, F_PREALLOCATE, &store) == -1 { return errno }
            return ftruncate(descriptor, off_t(length)) == 0 ? 0 : errno
        #endif
    }

    /// Flushes `descriptor`'s data to the disk itself: on Darwin `fsync` stops at the drive's cache, so
    /// `F_FULLFSYNC` (falling back to `fsync` where the file system refuses it). True on success.
    package static func synchronize(_ descriptor: Int32) -> Bool {
        #if canImport(Darwin)
            if fcntl(descriptor, F_FULLFSYNC) == 0 { return true }
        #endif
        return retryingInterrupts { fsync(descriptor) } == 0
    }

    /// Flushes `descriptor`'s data (not necessarily its times) to the disk itself: `fdatasync` on Linux; on
    /// Darwin, which has none, as ``synchronize(_:)``. True on success.
    package static func synchronizeData(_ descriptor: Int32) -> Bool {
        #if canImport(Darwin)
            return synchronize(descriptor)
        #else
            return retryingInterrupts { fdatasync(descriptor) } == 0
        #endif
    }
}
