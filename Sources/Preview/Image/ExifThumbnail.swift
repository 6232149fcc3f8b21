import Foundation

/// The small JPEG a camera embeds in a photo's EXIF data (IFD1), found in the photo's first bytes: a
/// thumbnail of a remote photo for the price of one Range request.
public struct ExifThumbnail: Sendable, Equatable {
    /// The embedded JPEG's bytes.
    public var jpeg: Data
    /// Its size in pixels (from its frame header).
    public var width: Int
    /// Its height in pixels.
    public var height: Int
    /// The main image's EXIF orientation, which the embedded picture does not carry but must be shown with.
    public var orientation: Int

    /// The embedded thumbnail of the JPEG whose first bytes are `prefix`; nil when there is none within them.
    public static func find(in prefix: Data) -> ExifThumbnail? {
        let b = [UInt8](prefix)
        guard b.count > 4, b[0] == 0xFF, b[1] == 0xD8 else { return nil }
        var at = 2
        while at + 4 <= b.count, b[at] == 0xFF {
            let marker = b[at + 1]
            let length = Int(b[at + 2]) << 8 | Int(b[at + 3])
            guard length >= 2 else { return nil }
            if marker == 0xE1, at + 10 <= b.count, Array(b[at + 4..<at + 10]) == Array("Exif".utf8) + [0, 0] {
                return parse(b, tiff: at + 10, end: min(b.count, at + 2 + length))
            }
            if marker == 0xDA { return nil }  // image data: no EXIF before it
            at += 2 + length
        }
        return nil
    }

    private static func parse(_ b: [UInt8], tiff: Int, end: Int) -> ExifThumbnail? {
        guard tiff + 8 <= end else { return nil }
        let little = b[tiff] == 0x49
        func u16(_ at: Int) -> Int? {
            guard at >= tiff, at + 2 <= end else { return nil }
            return little ? Int(b[at]) | Int(b[at + 1]) << 8 : Int(b[at]) << 8 | Int(b[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let low = u16(little ? at : at + 2), let high = u16(little ? at + 2 : at) else { return nil }
            return low | high << 16
        }
        /// The entries of the IFD at `offset` (from the TIFF header) as tag → value field position, and the next IFD.
        func ifd(_ offset: Int) -> (entries: [Int: Int], next: Int)? {
            let start = tiff + offset
            guard offset > 0, let count = u16(start), count < 1000, start + 2 + count * 12 + 4 <= end else { return nil }
            var entries: [Int: Int] = [:]
            for index in 0..<count {
                let entry = start + 2 + index * 12
                if let tag = u16(entry) { entries[tag] = entry + 8 }
            }
            return (entries, u32(start + 2 + count * 12) ?? 0)
        }
        guard let ifd0Offset = u32(tiff + 4), let ifd0 = ifd(ifd0Offset) else { return nil }
        let orientation = ifd0.entries[0x0112].flatMap { u16($0) } ?? 1
        guard let ifd1 = ifd(ifd0.next), let offset = ifd1.entries[0x0201].flatMap({ u32($0) }),
            let length = ifd1.entries[0x0202].flatMap({ u32($0) }), length > 4, tiff + offset + length <= end
        else { return nil }
        let jpeg = Data(b[tiff + offset..<tiff + offset + length])
        guard let (width, height) = FileFacts.jpegSize(jpeg) else { return nil }
        return ExifThumbnail(jpeg: jpeg, width: width, height: height, orientation: (1...8).contains(orientation) ? orientation : 1)
    }
}
