/// HTTP dates (`Sun, 06 Nov 1994 08:49:37 GMT`, RFC 9110's IMF-fixdate) without Foundation's
/// locale machinery, which loads ICU data and costs megabytes of memory for one header.
package enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]  // 1970-01-01 was a Thursday

    /// Seconds since 1970 for an IMF-fixdate; nil for anything else.
    package static func parse(_ text: String) -> Double? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT" || parts[5] == "UTC", let day = Int(parts[1]),
            let month = months.firstIndex(of: String(parts[2])), let year = Int(parts[3])
        else { return nil }
        let clock = parts[4].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3, (1...31).contains(day), (0...23).contains(clock[0]), (0...59).contains(clock[1]),
            (0...60).contains(clock[2])
        else { return nil }
        let days = daysFromCivil(year: year, month: month + 1, day: day)
        return Double(days * 86_400 + clock[0] * 3600 + clock[1] * 60 + clock[2])
    }

    /// The IMF-fixdate of a time.
    package static func format(_ seconds: Double) -> String {
        let (days, rest) = split(seconds)
        let (year, month, day) = civilFromDays(days)
        let weekday = weekdays[((days % 7) + 7) % 7]
        return
            "\(weekday), \(two(day)) \(months[month - 1]) \(year) \(two(rest / 3600)):\(two(rest / 60 % 60)):\(two(rest % 60)) GMT"
    }

    /// `2026-11-29 16:02` in UTC (`separator` between the day and the time): sortable, unambiguous, and with no
    /// locale machinery behind it.
    package static func minuteStamp(_ seconds: Double, separator: String = " ") -> String {
        let (days, rest) = split(seconds)
        let (year, month, day) = civilFromDays(days)
        return "\(year)-\(two(month))-\(two(day))\(separator)\(two(rest / 3600)):\(two(rest / 60 % 60))"
    }

    /// Whole days since 1970 and seconds into that day (floored, so times before 1970 stay in their day).
    private static func split(_ seconds: Double) -> (days: Int, secondOfDay: Int) {
        let total = Int(seconds.rounded(.down))
        let rest = ((total % 86_400) + 86_400) % 86_400
        return ((total - rest) / 86_400, rest)
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    // Howard Hinnant's days-from-civil algorithm (proleptic Gregorian calendar).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
