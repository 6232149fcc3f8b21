import Foundation

/// A request body that arrives as it is made (a pipe): a producer appends, the transfer takes, and at most
/// ``limit`` bytes wait in memory between them. Its length is not known, so it goes chunked.
package final class BodyStream: @unchecked Sendable {
    private let lock = NSLock()
    private var buffer = Data()
    private var offset = 0
    private var finished = false
    private var failure: String?
    /// The most bytes held at once; a producer waits while more are.
    package let limit: Int

    /// An empty stream holding at most `limit` bytes at once.
    package init(limit: Int = 4 << 20) { self.limit = max(64 << 10, limit) }

    /// Adds bytes, waiting while the transfer has not taken enough of the earlier ones.
    package func append(_ data: Data) async throws {
        while lock.withLock({ buffer.count - offset >= limit && failure == nil }) {
            try await Task.sleep(nanoseconds: 2_000_000)
        }
        lock.withLock {
            if offset > 0 {
                buffer.removeFirst(offset)
                offset = 0
            }
            buffer.append(data)
        }
    }

    /// No more bytes will come: the body ends after those held.
    package func finish() { lock.withLock { finished = true } }

    /// The producer failed: the transfer stops with `reason`, so the server never takes a cut body for a whole one.
    package func fail(_ reason: String) { lock.withLock { failure = reason } }

    /// What the transfer gets when it asks for bytes.
    package enum Take {
        case bytes(Int)
        case wait
        case end
        case failed(String)
    }

    /// Copies up to `into.count` held bytes (transfer side).
    package func take(into target: UnsafeMutableRawBufferPointer) -> Take {
        lock.withLock {
            if let failure { return .failed(failure) }
            let available = buffer.count - offset
            if available == 0 { return finished ? .end : .wait }
            let count = min(available, target.count)
            buffer.withUnsafeBytes { bytes in
                target.baseAddress!.copyMemory(from: bytes.baseAddress! + offset, byteCount: count)
            }
            offset += count
            return .bytes(count)
        }
    }
}
