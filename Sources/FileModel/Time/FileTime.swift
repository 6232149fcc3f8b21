/// A file's modification time as a file system keeps it: whole seconds since 1970 (negative before) and the
/// nanoseconds within that second. Any time a file system can hold fits, from before 1901 to past the year
/// 9999: a single 64-bit count of nanoseconds ends in 2262, and such a file once crashed every upload of it.
package struct FileTime: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Whole seconds since 1970-01-01 UTC, rounded down (1969.5 is -1 and 500,000,000 ns).
    package var seconds: Int64
    /// Nanoseconds within the second, 0 up to 999,999,999.
    package var nanoseconds: Int32

    /// A time from its parts; nanoseconds outside one second carry into the seconds.
    package init(seconds: Int64, nanoseconds: Int64 = 0) {
        let (carry, rest) = nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        var whole = seconds.addingReportingOverflow(carry).partialValue
        var fraction = rest
        if fraction < 0 {
            fraction += 1_000_000_000
            whole = whole.subtractingReportingOverflow(1).partialValue
        }
        self.seconds = whole
        self.nanoseconds = Int32(fraction)
    }

    /// A time in seconds as a `Double` (to the microsecond it holds); beyond what 64-bit seconds hold, clamped.
    package init(timeInterval: Double) {
        guard timeInterval.isFinite else {
            self.init(seconds: timeInterval > 0 ? Int64.max : (timeInterval < 0 ? Int64.min : 0))
            return
        }
        let whole = timeInterval.rounded(.down)
        guard whole < 9.2e18, whole > -9.2e18 else {
            self.init(seconds: whole > 0 ? Int64.max : Int64.min)
            return
        }
        let fraction = ((timeInterval - whole) * 1e6).rounded() * 1000
        self.init(seconds: Int64(whole), nanoseconds: Int64(min(max(fraction, 0), 999_999_000)))
    }

    /// `timeInterval` to the nearest whole millisecond: what an Officer server keeps, so a binary fraction's
    /// noise (1700000000.123 is 1700000000.1229999…) never makes a time one millisecond early.
    package init(millisecondsOf timeInterval: Double) {
        let milliseconds = (timeInterval * 1000).rounded()
        guard milliseconds.isFinite, abs(milliseconds) < 9.2e15 else {
            self.init(timeInterval: timeInterval)
            return
        }
        let (whole, rest) = Int64(milliseconds).quotientAndRemainder(dividingBy: 1000)
        self.init(seconds: whole, nanoseconds: rest * 1_000_000)
    }

    /// Seconds since 1970 as a `Double`: what sync, the API and the display use.
    package var timeInterval: Double { Double(seconds) + Double(nanoseconds) / 1e9 }

    /// `1700000000.123456789` with trailing zeros dropped (`1700000000` for a whole second): exact, for metadata.
    package var decimalText: String {
        guard nanoseconds != 0 else { return String(seconds) }
        var digits = String(nanoseconds)
        digits = String(repeating: "0", count: 9 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(seconds).\(digits)"
    }

    /// The seconds followed by nine digits of nanoseconds: the same text a nanosecond count gave for times after
    /// 1970, so keys made from it before stay valid.
    package var description: String {
        let digits = String(nanoseconds)
        return String(seconds) + String(repeating: "0", count: 9 - digits.count) + digits
    }

    /// Earlier first.
    package static func < (a: FileTime, b: FileTime) -> Bool {
        (a.seconds, a.nanoseconds) < (b.seconds, b.nanoseconds)
    }
}
