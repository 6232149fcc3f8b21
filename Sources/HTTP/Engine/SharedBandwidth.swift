import FileModel
import Foundation

/// A bandwidth limit every request of the clients given it keeps together, each way (`sync --bwlimit`: in all,
/// as rclone's, however many files are in flight): one token bucket for the bytes received and one for those sent,
/// which each request's engine asks before it moves bytes.
package final class SharedBandwidth: Sendable {
    /// The limit, each way.
    package let bytesPerSecond: Int64
    private let receiving: LockedValue<RatePacer>
    private let sending: LockedValue<RatePacer>

    /// A limit of `bytesPerSecond` each way.
    package init(bytesPerSecond: Int64) {
        self.bytesPerSecond = max(1, bytesPerSecond)
        receiving = LockedValue(RatePacer(bytesPerSecond: bytesPerSecond))
        sending = LockedValue(RatePacer(bytesPerSecond: bytesPerSecond))
    }

    fileprivate func admit(_ bytes: Int, sending isSending: Bool) -> Double? {
        (isSending ? sending : receiving).withLock { $0.admit(bytes) }
    }

    fileprivate func charge(_ bytes: Int, sending isSending: Bool) -> Double {
        (isSending ? sending : receiving).withLock { $0.charge(bytes) }
    }
}

/// The pace one direction of one request keeps: its own limit (``HTTPRequest/maxReceiveBytesPerSecond``) or its
/// client's shared one (``HTTPClientConfiguration/bandwidth``), asked the same way by every engine.
package enum Pace: Sendable {
    /// The request's own bucket.
    case own(RatePacer)
    /// The client's bucket, for bytes sent or received.
    case shared(SharedBandwidth, sending: Bool)

    /// The pace `request` keeps `sending` (or receiving) under `configuration`: its own limit, else the shared one,
    /// else none.
    package static func of(_ request: HTTPRequest, sending: Bool, configuration: HTTPClientConfiguration) -> Pace? {
        if let rate = sending ? request.maxSendBytesPerSecond : request.maxReceiveBytesPerSecond, rate > 0 {
            return .own(RatePacer(bytesPerSecond: rate))
        }
        return configuration.bandwidth.map { .shared($0, sending: sending) }
    }

    /// Bytes a second.
    package var bytesPerSecond: Double {
        switch self {
        case .own(let pacer): pacer.bytesPerSecond
        case .shared(let bandwidth, _): Double(bandwidth.bytesPerSecond)
        }
    }

    /// Takes `bytes` if they are due now; otherwise the seconds to wait (``RatePacer/admit(_:now:)``).
    package mutating func admit(_ bytes: Int) -> Double? {
        switch self {
        case .own(var pacer):
            defer { self = .own(pacer) }
            return pacer.admit(bytes)
        case .shared(let bandwidth, let sending): return bandwidth.admit(bytes, sending: sending)
        }
    }

    /// Charges bytes that already moved; the seconds to stay paused (``RatePacer/charge(_:now:)``).
    package mutating func charge(_ bytes: Int) -> Double {
        switch self {
        case .own(var pacer):
            defer { self = .own(pacer) }
            return pacer.charge(bytes)
        case .shared(let bandwidth, let sending): return bandwidth.charge(bytes, sending: sending)
        }
    }
}
