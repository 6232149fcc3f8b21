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
        if let field = ifd0[0x0112]?.field, let value = block.u16(field), (1...8).contains(value) { orientation = value }
        camera = ascii(ifd0[0x0110])
        if let pointer = ifd0[0x8769].flatMap({ block.u32($0.field) }) { taken = ascii(block.ifd(pointer)?.entries[0x9003]) }
        if let pointer = ifd0[0x8825].flatMap({ block.u32($0.field) }) { hasGPS = block.ifd(pointer)?.entries[0x0002] != nil }
    }
}
