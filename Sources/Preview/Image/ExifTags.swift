import Foundation

/// The EXIF facts a viewer shows, read from a TIFF-structured EXIF block (what a JPEG's APP1 segment and a
/// HEIF `Exif` item hold): orientation, camera model, when it was taken, whether it has a GPS position. Every
/// offset is checked against the block, so a hostile file gives nil fields, never a crash.
struct ExifTags {
    var orientation = 1
    var camera: String?
    var taken: String?
    var hasGPS = false
    var latitude: Double?
    var longitude: Double?

    /// Reads the block that starts with the TIFF header (`II*\0` or `MM\0*`); nil when it is not one.
    init?(tiff bytes: [UInt8]) {
        guard let block = TIFFBlock(bytes), let first = block.firstIFD else { return nil }
        /// An ASCII value (in the field when it fits in four bytes, else at the offset the field holds).
        func ascii(_ entry: TIFFBlock.Entry?) -> String? {
            guard let entry, entry.type == 2, entry.count > 0, entry.count < 4096 else { return nil }
            let start = entry.count <= 4 ? entry.field : (block.u32(entry.field) ?? -1)
            guard start >= 0, start + entry.count <= bytes.count else { return nil }
            let text = String(decoding: bytes[start..<start + entry.count].prefix { $0 != 0 }, as: UTF8.self)
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            return trimmed.isEmpty ? nil : trimmed
        }
        let ifd0 = block.ifd(first)?.entries ?? [:]
        if let field = ifd0[0x0112]?.field, let value = block.u16(field), (1...8).contains(value) {
            orientation = value
        }
        camera = ascii(ifd0[0x0110])
        if let pointer = ifd0[0x8769].flatMap({ block.u32($0.field) }) {
            taken = ascii(block.ifd(pointer)?.entries[0x9003])
        }
        if let pointer = ifd0[0x8825].flatMap({ block.u32($0.field) }), let gps = block.ifd(pointer)?.entries {
            hasGPS = gps[0x0002] != nil
            /// Three rationals (degrees, minutes, seconds) at the offset the field holds.
            func angle(_ entry: TIFFBlock.Entry?, _ reference: TIFFBlock.Entry?, negative: String) -> Double? {
                guard let entry, entry.type == 5, entry.count == 3, let start = block.u32(entry.field), start >= 0,
                    start + 24 <= bytes.count
                else { return nil }
                var values: [Double] = []
                for index in 0..<3 {
                    guard let top = block.u32(start + index * 8), let bottom = block.u32(start + index * 8 + 4),
                        bottom != 0
                    else { return nil }
                    values.append(Double(top) / Double(bottom))
                }
                return GPSPosition.degrees(
                    values[0], values[1], values[2], negative: ascii(reference)?.uppercased() == negative)
            }
            latitude = angle(gps[0x0002], gps[0x0001], negative: "S")
            longitude = angle(gps[0x0004], gps[0x0003], negative: "W")
            if latitude == nil || longitude == nil { (latitude, longitude) = (nil, nil) }
        }
    }
}
