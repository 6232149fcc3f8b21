/// The one reading of an EXIF GPS angle, for libvips' fields and the EXIF blocks read here alike.
package enum GPSPosition {
    /// Degrees, minutes and seconds as signed decimal degrees (south and west negative); nil when out of range.
    package static func degrees(_ degrees: Double, _ minutes: Double, _ seconds: Double, negative: Bool) -> Double? {
        let value = degrees + minutes / 60 + seconds / 3600
        guard value.isFinite, value <= 180 else { return nil }
        return negative ? -value : value
    }

    /// `48.85837° N, 2.29448° E`.
    static func shown(latitude: Double, longitude: Double) -> String {
        func part(_ value: Double, _ positive: String, _ negative: String) -> String {
            String(format: "%.5f° %@", abs(value), value < 0 ? negative : positive)
        }
        return part(latitude, "N", "S") + ", " + part(longitude, "E", "W")
    }
}

extension FileFacts.ImageFacts {
    /// The position as people read it (`48.85837° N, 2.29448° E`), when there is one.
    package var position: String? {
        guard let latitude, let longitude else { return nil }
        return GPSPosition.shown(latitude: latitude, longitude: longitude)
    }
}
