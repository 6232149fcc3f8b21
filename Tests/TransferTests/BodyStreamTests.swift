import Foundation
import Testing

@testable import HTTP

/// A pipe's body between its producer and the transfer: the producer is suspended while the buffer is full and
/// goes on when the transfer takes bytes; a reader in Swift concurrency is suspended while it is empty. No sleeps:
/// each side awaits the other's step.
@Suite(.timeLimit(.minutes(30))) struct BodyStreamTests {
    static let limit = 64 << 10

    /// Takes everything held, in 16 KiB reads; the bytes taken.
    func drain(_ stream: BodyStream) -> Int {
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        var total = 0
        while case .bytes(let count) = buffer.withUnsafeMutableBytes({ stream.take(into: $0) }) { total += count }
        return total
    }

    @Test func aProducerAheadOfTheTransferWaitsUntilItTakes() async throws {
        let stream = BodyStream(limit: Self.limit)
        try await stream.append(Data(count: Self.limit))  // fills it: returns at once
        let appended = Task { try await stream.append(Data(count: 10)) }
        // The producer is suspended; the transfer takes what is held, which lets it go on.
        #expect(drain(stream) == Self.limit)
        try await appended.value
        #expect(drain(stream) == 10)
        stream.finish()
        var byte = [UInt8](repeating: 0, count: 1)
        guard case .end = byte.withUnsafeMutableBytes({ stream.take(into: $0) }) else {
            Issue.record("a finished, empty stream ends")
            return
        }
    }

    @Test func aWaitingProducerStopsWhenCancelledOrWhenTheBodyFails() async throws {
        let stream = BodyStream(limit: Self.limit)
        try await stream.append(Data(count: Self.limit))
        let cancelled = Task { try await stream.append(Data(count: 10)) }
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }

        let failed = BodyStream(limit: Self.limit)
        try await failed.append(Data(count: Self.limit))
        let waiting = Task { try await failed.append(Data(count: 10)) }
        failed.fail("the pipe broke")
        try await waiting.value
        var byte = [UInt8](repeating: 0, count: 1)
        guard case .failed("the pipe broke") = byte.withUnsafeMutableBytes({ failed.take(into: $0) }) else {
            Issue.record("a failed stream fails its transfer")
            return
        }
    }

    @Test func aReaderWaitsForBytesOrTheEnd() async throws {
        let stream = BodyStream(limit: Self.limit)
        let reader = Task {
            try await stream.waitForBytes()
            return drain(stream)
        }
        try await stream.append(Data(count: 100))
        #expect(try await reader.value == 100)
        let atEnd = Task { try await stream.waitForBytes() }
        stream.finish()
        try await atEnd.value
        let cancelled = Task { try await BodyStream().waitForBytes() }
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
    }
}
