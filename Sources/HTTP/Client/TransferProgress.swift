/// Byte counters of one transfer as libcurl reports them.
package struct TransferProgress: Sendable, Equatable {
    /// Bytes received so far in this attempt.
    package var received: Int64
    /// Bytes expected to be received, when known.
    package var expectedReceive: Int64?
    /// Bytes sent so far in this attempt.
    package var sent: Int64
    /// Bytes expected to be sent, when known.
    package var expectedSend: Int64?
    /// Bytes of this attempt's body stored in the file or stream sink so far.
    package var written: Int64

    /// Creates a snapshot.
    package init(received: Int64, expectedReceive: Int64?, sent: Int64, expectedSend: Int64?, written: Int64 = 0) {
        self.received = received
        self.expectedReceive = expectedReceive
        self.sent = sent
        self.expectedSend = expectedSend
        self.written = written
    }
}

/// What ``HTTPClient/events(for:)`` yields: progress while the transfer runs, then its response.
package enum HTTPEvent: Sendable {
    /// Counters moved.
    case progress(TransferProgress)
    /// An attempt failed and another follows after `delay` seconds.
    case retrying(attempt: Int, delay: Double, reason: String)
    /// The transfer finished with this response.
    case completed(HTTPResponse)
}
