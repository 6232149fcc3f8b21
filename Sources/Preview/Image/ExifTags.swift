import Foundation

/// The EXIF facts a viewer shows, read from a TIFF-structured EXIF block (what a JPEG's APP1 segment and a
/// HEIF `Exif` item hold): orientation, camera model, when it was taken, whether it has a GPS position. Every
/// offset is checked against the block, so a hostile file gives nil fields, never a crash.
struct ExifTags {
    var orientation = 1
    var camera: String?
    var taken: String?
    var hasGPS = false

    /// Reads the block that starts with the TIFF header (`II*\0` or `MM\0*`); nil when it is not one.
    init?(tiff bytes: [UInt8]) {
        guard bytes.count >= 8, bytes[0] == bytes[1], bytes[0] == 0x49 || bytes[0] == 0x4D else { return nil }
        let little = bytes[0] == 0x49
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= bytes.count else { return nil }
            return little ? Int(bytes[at]) | Int(bytes[at + 1]) << 8 : Int(bytes[at]) << 8 | Int(bytes[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let low = u16(little ? at : at + 2), let high = u16(little ? at + 2 : at) else { return nil }
            return low | high << 16
        }
        /// Tag → (type, count, position of the value field) of the IFD at `offset`.
        func ifd(_ offset: Int) -> [Int: (type: Int, count: Int, field: Int)] {
            guard offset >= 8, let count = u16(offset), count < 1000, offset + 2 + count * 12 <= bytes.count else { return [:] }
            var entries: [Int: (Int, Int, Int)] = [:]
            for index in 0..<count {
                let entry = offset + 2 + index * 12
                if let tag = u16(entry), let type = u16(entry + 2), let count = u32(entry + 4) { entries[tag] = (type, count, entry + 8) }
            }
            return entries
        }
        /// An ASCII value (in the field when it fits in four bytes, else at the offset the field holds).
        func ascii(_ entry: (type: Int, count: Int, field: Int)?) -> String? {
            guard let entry, entry.type == 2, entry.count > 0, entry.count < 4096 else { return nil }
            let start = entry.count <= 4 ? entry.field : (u32(entry.field) ?? -1)
            guard start >= 0, start + entry.count <= bytes.count else { return nil }
            let text = String(decoding: bytes[start..<start + entry.count].prefix { $0 != 0 }, as: UTF8.self)
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            return trimmed.isEmpty ? nil : trimmed
        }
        guard let first = u32(4) else { return nil }
        let ifd0 = ifd(first)
        if let field = ifd0[0x0112]?.field, let value = u16(field), (1...8).contains(value) { orientation = value }
        camera = ascii(ifd0[0x0110])
        if let pointer = ifd0[0x8769].flatMap({ u32($0.field) }) { taken = ascii(ifd(pointer)[0x9003]) }
        if let pointer = ifd0[0x8825].flatMap({ u32($0.field) }) { hasGPS = ifd(pointer)[0x0002] != nil }
    }
}
