/// The state a C library's read, seek and skip callbacks share for bytes read from a ``ByteSource``: the
/// source, the position, the buffer handed out last (libarchive reads into memory we own), and the source's
/// own error, kept to be thrown instead of the library's generic message. Owned by the wrapper of the
/// library's handle (the archive and image plug-ins') for as long as the handle lives.
package final class ByteSourceCursor {
    package let source: any ByteSource
    package private(set) var position: Int64 = 0
    /// The buffer ``next()`` fills; empty unless asked for.
    package let buffer: UnsafeMutableRawBufferPointer
    /// Why the source failed, if it did.
    package private(set) var failure: (any Error)?

    package init(_ source: any ByteSource, bufferSize: Int = 0) {
        self.source = source
        buffer = .allocate(byteCount: bufferSize, alignment: 16)
    }

    deinit { buffer.deallocate() }

    /// Fills ``buffer`` from the position; the count, 0 at the end, -1 when the source failed.
    package func next() -> Int { read(into: buffer) }

    /// Fills `target` from the position; the count, 0 at the end, -1 when the source failed.
    package func read(into target: UnsafeMutableRawBufferPointer) -> Int {
        guard target.count > 0 else { return 0 }
        do {
            let count = try source.read(at: position, into: target)
            position += Int64(count)
            return count
        } catch {
            failure = error
            return -1
        }
    }

    /// Moves the position as `lseek` would; -1 before the start.
    package func seek(_ offset: Int64, whence: Int32) -> Int64 {
        let base: Int64 =
            switch whence {
            case 1: position
            case 2: source.size
            default: 0
            }
        guard base + offset >= 0 else { return -1 }
        position = base + offset
        return position
    }

    /// Skips up to `count` bytes without reading them (never past the end).
    package func skip(_ count: Int64) -> Int64 {
        let skipped = max(0, min(count, source.size - position))
        position += skipped
        return skipped
    }
}
