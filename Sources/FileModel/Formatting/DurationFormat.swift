/// Compact durations for progress lines and summaries: `45s`, `3m07s`, `2h05m`, `3d04h`.
package enum DurationFormat {
    /// Formats whole seconds; negative, NaN or infinite input (an unknown ETA) gives `--`.
    package static func string(seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0, seconds < 1e12 else { return "--" }
        let total = Int64(seconds.rounded())
        let (days, hours, minutes, secs) = (total / 86_400, total / 3600 % 24, total / 60 % 60, total % 60)
        if days > 0 { return "\(days)d" + pad(hours) + "h" }
        if hours > 0 { return "\(hours)h" + pad(minutes) + "m" }
        if minutes > 0 { return "\(minutes)m" + pad(secs) + "s" }
        return "\(secs)s"
    }

    /// Formats a duration with millisecond precision below ten seconds (`1.234s`), for summaries.
    package static func precise(seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "--" }
        if seconds < 10 { return ByteCountFormat.fixed(seconds, decimals: 3) + "s" }
        return string(seconds: seconds)
    }

    private static func pad(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
