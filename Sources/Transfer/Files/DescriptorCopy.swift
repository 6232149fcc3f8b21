import Foundation
import HTTP
import Platform

/// Copies everything readable from one open file to another in 1 MiB blocks, retrying interrupted calls:
/// the one loop behind filling a download from a cache entry, staging a file into the cache and `cat` of a
/// cached copy.
package enum DescriptorCopy {
    /// Which side failed, and how.
    package struct Failure: Error, Sendable {
        /// True when reading the source failed, false when writing the destination did.
        package var reading: Bool
        /// `strerror` of the failure.
        package var message: String
    }

    /// Copies from the current position of `source` to the end, appending at `destination`'s position.
    package static func copy(from source: Int32, to destination: Int32) throws(Failure) {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = SystemCalls.retryingInterrupts {
                buffer.withUnsafeMutableBytes { read(source, $0.baseAddress!, $0.count) }
            }
            if count == 0 { return }
            guard count > 0 else { throw Failure(reading: true, message: String(cString: strerror(errno))) }
            if let failed = buffer.withUnsafeBytes({
                SystemCalls.writeAll(destination, UnsafeRawBufferPointer(rebasing: $0[0..<count]))
            }) {
                throw Failure(reading: false, message: String(cString: strerror(failed)))
            }
        }
    }
}
