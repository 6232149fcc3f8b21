import FileModel
import Foundation
import Platform

/// The bytes of a file descriptor (a pipe, standard input) as an async sequence of buffers, read on a queue of
/// its own one buffer at a time: the reader never runs ahead of the consumer (a pipe faster than the network
/// waits in the pipe, not in memory), and a blocking read never holds one of the cooperative pool's threads.
/// Cancelling the consuming task ends a read that is still waiting at once.
package struct DescriptorByteStream: AsyncSequence, Sendable {
    /// One buffer, at most ``readSize`` bytes.
    package typealias Element = Data

    private let descriptor: Int32
    private let readSize: Int

    /// Reads `descriptor` (not closed here) in buffers of up to `readSize` bytes.
    package init(descriptor: Int32, readSize: Int = 1 << 20) {
        self.descriptor = descriptor
        self.readSize = readSize
    }

    /// The iterator: each `next()` is one read.
    package struct AsyncIterator: AsyncIteratorProtocol {
        fileprivate let reader: DescriptorReader

        /// The next buffer, nil at the end.
        package mutating func next() async throws -> Data? { try await reader.read() }
    }

    /// A new iterator over the descriptor.
    package func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(reader: DescriptorReader(descriptor: descriptor, size: readSize))
    }
}

/// A failed `read(2)`.
package struct DescriptorReadError: Error, CustomStringConvertible, Sendable {
    /// The `errno` of the failure.
    package var code: Int32
    /// The system's words for it.
    package var description: String { "cannot read: " + String(cString: strerror(code)) }
}

private final class DescriptorReader: Sendable {
    private let descriptor: Int32
    private let size: Int
    private let queue = DispatchQueue(label: "officer-files.descriptor-read")

    init(descriptor: Int32, size: Int) {
        self.descriptor = descriptor
        self.size = size
    }

    func read() async throws -> Data? {
        let once = ResumeOnce()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data?, any Error>) in
                once.set(continuation)
                queue.async { [descriptor, size] in
                    var buffer = [UInt8](repeating: 0, count: size)
                    let count = SystemCalls.retryingInterrupts {
                        buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, size) }
                    }
                    if count < 0 {
                        once.resume(throwing: DescriptorReadError(code: errno))
                    } else {
                        once.resume(returning: count == 0 ? nil : Data(buffer[0..<count]))
                    }
                }
            }
        } onCancel: {
            once.resume(throwing: CancellationError())
        }
    }
}

/// A continuation resumed by whichever comes first: the read, or the cancellation.
private final class ResumeOnce: Sendable {
    private struct Pending {
        var continuation: CheckedContinuation<Data?, any Error>?
        var early: Result<Data?, any Error>?
    }
    private let pending = LockedValue(Pending())

    func set(_ continuation: CheckedContinuation<Data?, any Error>) {
        let early = pending.withLock { pending -> Result<Data?, any Error>? in
            if pending.early == nil { pending.continuation = continuation }
            return pending.early
        }
        if let early { continuation.resume(with: early) }
    }

    func resume(returning value: Data?) { finish(.success(value)) }
    func resume(throwing error: any Error) { finish(.failure(error)) }

    private func finish(_ result: Result<Data?, any Error>) {
        let waiting = pending.withLock { pending -> CheckedContinuation<Data?, any Error>? in
            guard let continuation = pending.continuation else {
                // Cancelled before the continuation was set: keep the first outcome for it.
                if pending.early == nil { pending.early = result }
                return nil
            }
            pending.continuation = nil
            pending.early = result
            return continuation
        }
        waiting?.resume(with: result)
    }
}
