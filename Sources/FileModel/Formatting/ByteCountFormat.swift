/// Human-readable byte counts in binary units (`1.5 MiB`), the way rclone and curl show them.
package enum ByteCountFormat {
    private static let units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]

    /// Formats `bytes` with three significant digits above 1 KiB: `512 B`, `1.50 KiB`, `12.3 MiB`, `512 GiB`.
    package static func string(_ bytes: Int64) -> String {
        if bytes < 0 { return "-" + string(bytes == Int64.min ? Int64.max : -bytes) }
        if bytes < 1024 { return "\(bytes) B" }
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        // Rounding can carry into the next unit (1023.99 KiB → "1024 KiB"); move up instead.
        if value >= 999.5, unit < units.count - 1, rounded(value, decimals: 0) >= 1024 {
            value /= 1024
            unit += 1
        }
        let decimals = value < 10 ? 2 : (value < 100 ? 1 : 0)
        return "\(fixed(value, decimals: decimals)) \(units[unit])"
    }

    /// A transfer rate such as `12.3 MiB/s`.
    package static func rate(_ bytesPerSecond: Double) -> String {
        guard bytesPerSecond.isFinite, bytesPerSecond >= 0 else { return "-- B/s" }
        return string(Int64(bytesPerSecond.rounded())) + "/s"
    }

    /// Parses sizes typed by people: `1048576`, `512K`, `1.5M`, `2GiB`, `10 MB` (all binary multiples).
    package static func parse(_ text: String) -> Int64? {
        let trimmed = text.trimmingSpaces().uppercased()
        let digits = trimmed.prefix { $0.isNumber || $0 == "." }
        guard let number = Double(digits), number >= 0 else { return nil }
        var suffix = String(trimmed.dropFirst(digits.count)).trimmingSpaces()
        for tail in ["IB", "B"] where suffix.hasSuffix(tail) && suffix.count > tail.count - 1 {
            suffix = String(suffix.dropLast(tail.count))
            break
        }
        let multipliers: [String: Double] = [
            "": 1, "K": 1024, "M": 1_048_576, "G": 1_073_741_824, "T": 1_099_511_627_776,
        ]
        guard let multiplier = multipliers[suffix] else { return nil }
        let result = number * multiplier
        guard result < Double(Int64.max) else { return nil }
        return Int64(result.rounded())
    }

    static func rounded(_ value: Double, decimals: Int) -> Double {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        return (value * scale).rounded() / scale
    }

    /// Fixed-point formatting without Foundation's locale-dependent `String(format:)`.
    package static func fixed(_ value: Double, decimals: Int) -> String {
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int64((value * Double(scale)).rounded())
        let whole = scaled / scale
        guard decimals > 0 else { return "\(whole)" }
        let fraction = String(scaled % scale)
        return "\(whole)." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        var slice = Substring(self)
        while slice.first == " " { slice = slice.dropFirst() }
        while slice.last == " " { slice = slice.dropLast() }
        return String(slice)
    }
}
