import Foundation
import Platform

/// The bytes of an open local file (a cached copy), read with `pread`: the descriptor stays the caller's.
package final class DescriptorByteSource: ByteSource {
    private let descriptor: Int32
    /// The length in bytes.
    package let size: Int64

    /// A source over `descriptor`, `size` bytes long.
    package init(descriptor: Int32, size: Int64) {
        self.descriptor = descriptor
        self.size = size
    }

    /// Copies up to `buffer.count` bytes from `offset`.
    package func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = SystemCalls.retryingInterrupts {
            pread(descriptor, buffer.baseAddress, buffer.count, off_t(offset))
        }
        if count >= 0 { return count }
        throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: String(cString: strerror(errno))])
    }
}
