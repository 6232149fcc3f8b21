import FileModel

/// The low-speed rule every engine keeps: a transfer averaging less than the configuration's
/// ``HTTPClientConfiguration/lowSpeedLimit`` over ``HTTPClientConfiguration/lowSpeedWindow`` fails as too slow.
/// A deliberately paced transfer may run below the usual floor, but not far below its own pace. Its windows are
/// measured on the configuration's ``HTTPClientConfiguration/clock`` (a test advances a manual one).
package struct LowSpeedWatch: Sendable {
    /// Bytes per second the transfer must average over each window.
    package let limit: Int
    /// The window, in seconds.
    package let window: Double
    private let clock: ClockReading
    private var windowStart: Double
    private var windowStartBytes: Int64 = 0
    private var pausedInWindow = false

    /// The rule for `request` under `configuration`, its first window starting now.
    package init(request: HTTPRequest, configuration: HTTPClientConfiguration) {
        let pace = [request.maxReceiveBytesPerSecond, request.maxSendBytesPerSecond].compactMap { $0 }
            .filter { $0 > 0 }.min()
        limit = pace.map { max(1, min(configuration.lowSpeedLimit, Int($0 / 4))) } ?? configuration.lowSpeedLimit
        window = max(1, configuration.lowSpeedWindow)
        clock = ClockReading(configuration.clock)
        windowStart = 0
    }

    /// Whether the window that ends now, with `moved` bytes moved both ways since the transfer began, fell below
    /// the limit; a transfer paused by its own pacer or waiting for its body's producer (now, or at some time in
    /// the window) is never too slow.
    package mutating func isTooSlow(moved: Int64, paused: Bool) -> Bool {
        let now = clock.seconds
        guard now - windowStart >= window else { return false }
        if Double(moved - windowStartBytes) < Double(limit) * (now - windowStart), !paused, !pausedInWindow {
            return true
        }
        windowStart = now
        windowStartBytes = moved
        pausedInWindow = false
        return false
    }

    /// The pacer held the transfer back: the current window is not judged (an engine that sees no callbacks while
    /// it is held, as URLSession's suspended task, says so when it holds it).
    package mutating func notePause() { pausedInWindow = true }

    /// The failure to report for `label`.
    package func failure(label: String) -> HTTPError {
        .tooSlow(request: label, bytesPerSecond: limit, seconds: Int(window.rounded()))
    }
}
