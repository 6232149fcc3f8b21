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

    /// Seconds since 1970 for an RFC 3339 time (`2026-11-30T12:00:00Z`, `…T12:00:00.500Z`, `…T13:00:00+01:00`), as
    /// S3 listings write them; nil for anything else. Read by hand: a formatter per listed object cost more CPU than
    /// the rest of its listing.
    package static func parseRFC3339(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[start..<start + count] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        func at(_ index: Int, _ character: Character) -> Bool {
            index < bytes.count && bytes[index] == character.asciiValue
        }
        guard bytes.count >= 20, let year = number(0, 4), at(4, "-"), let month = number(5, 2), at(7, "-"),
            let day = number(8, 2), at(10, "T") || at(10, "t") || at(10, " "), let hour = number(11, 2), at(13, ":"),
            let minute = number(14, 2), at(16, ":"), let second = number(17, 2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60
        else { return nil }
        var index = 19
        var fraction = 0.0
        if at(index, ".") {
            var scale = 0.1
            index += 1
            let digitsStart = index
            while index < bytes.count, let digit = number(index, 1) {
                fraction += Double(digit) * scale
                scale /= 10
                index += 1
            }
            guard index > digitsStart else { return nil }
        }
        var offset = 0
        if at(index, "Z") || at(index, "z") {
            index += 1
        } else if at(index, "+") || at(index, "-"), let hours = number(index + 1, 2), at(index + 3, ":"),
            let minutes = number(index + 4, 2)
        {
            offset = (hours * 3600 + minutes * 60) * (at(index, "-") ? -1 : 1)
            index += 6
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset) + fraction
    }

    /// `20130524T000000Z`: the basic ISO 8601 form in UTC that AWS signatures carry.
    package static func basicStamp(_ seconds: Double) -> String {
        let (days, rest) = split(seconds)
        let (year, month, day) = civilFromDays(days)
        return "\(year)\(two(month))\(two(day))T\(two(rest / 3600))\(two(rest / 60 % 60))\(two(rest % 60))Z"
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
