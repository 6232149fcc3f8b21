/// The two ways a time is written: for people (`2026-12-01 07:34 UTC`, in listings, messages and reports alike)
/// and in JSON (RFC 3339 in UTC with milliseconds, `2026-12-01T07:34:11.123Z`). One rule, so no command picks a
/// third.
package enum TimeStamp {
    /// `2026-12-01 07:34 UTC`: sortable, unambiguous, no locale machinery behind it.
    package static func shown(_ seconds: Double) -> String { HTTPDate.minuteStamp(seconds) + " UTC" }

    /// `2026-12-01T07:34:11.123Z`.
    package static func json(_ seconds: Double) -> String {
        let milliseconds = Int64((seconds * 1000).rounded(.down))
        let whole = Double(milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000)
        let fraction = Int(((milliseconds % 1000) + 1000) % 1000)
        let day = HTTPDate.minuteStamp(whole, separator: "T")
        let second = Int(((Int64(whole) % 60) + 60) % 60)
        return day + ":" + pad(second, 2) + "." + pad(fraction, 3) + "Z"
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
