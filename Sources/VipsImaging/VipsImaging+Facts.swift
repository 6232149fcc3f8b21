import Preview

extension VipsImaging {
    /// The facts of an opened image.
    static func facts(_ image: VipsImage) -> FileFacts.ImageFacts {
        // libvips renders EXIF strings as `value (value, ASCII, n components, n bytes)`: keep the value.
        func exif(_ field: String) -> String? {
            image.string(field).map { $0.components(separatedBy: " (")[0].trimmingCharacters(in: .whitespaces) }
        }
        var facts = FileFacts.ImageFacts(
            width: image.width, height: image.height, orientation: image.orientation,
            camera: exif("exif-ifd0-Model"),
            taken: exif("exif-ifd2-DateTimeOriginal"), hasGPS: image.hasGPS)
        // `51/1 30/1 2640/100 (51, 30, 26.40, Rational, …)` and `N (N, ASCII, …)`.
        func coordinate(_ field: String, negative: String) -> Double? {
            guard let text = image.string("exif-ifd3-GPS" + field) else { return nil }
            let parts = text.components(separatedBy: " (")[0].split(separator: " ").map { part -> Double? in
                let fraction = part.split(separator: "/")
                guard fraction.count == 2, let top = Double(fraction[0]), let bottom = Double(fraction[1]),
                    bottom != 0
                else { return nil }
                return top / bottom
            }
            guard parts.count == 3, let degrees = parts[0], let minutes = parts[1], let seconds = parts[2] else {
                return nil
            }
            let reference = exif("exif-ifd3-GPS" + field + "Ref")?.uppercased()
            return GPSPosition.degrees(degrees, minutes, seconds, negative: reference == negative)
        }
        facts.latitude = coordinate("Latitude", negative: "S")
        facts.longitude = coordinate("Longitude", negative: "W")
        if facts.latitude == nil || facts.longitude == nil { (facts.latitude, facts.longitude) = (nil, nil) }
        return facts
    }
}
