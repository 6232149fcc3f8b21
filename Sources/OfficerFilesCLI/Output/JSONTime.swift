import FileModel

/// A time in JSON output: RFC 3339 in UTC with milliseconds (`2026-12-01T07:34:11.123Z`), whatever it measures.
struct JSONTime: Encodable, Sendable, Equatable {
    /// Seconds since 1970.
    var seconds: Double

    init(_ seconds: Double) { self.seconds = seconds }

    /// The time, or nil for none.
    init?(_ seconds: Double?) {
        guard let seconds else { return nil }
        self.seconds = seconds
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }

    /// The time as it is written (`2026-12-05T10:00:00.000Z`).
    var text: String { TimeStamp.json(seconds) }
}
