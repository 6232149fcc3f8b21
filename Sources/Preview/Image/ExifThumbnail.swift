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
    package static func find(in prefix: Data) -> ExifThumbnail? {
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
        guard tiff < end, let block = TIFFBlock(Array(b[tiff..<end])), let ifd0 = block.firstIFD.flatMap(block.ifd)
        else { return nil }
        let orientation = ifd0.entries[0x0112].flatMap { block.u16($0.field) } ?? 1
        guard let ifd1 = block.ifd(ifd0.next), let offset = ifd1.entries[0x0201].flatMap({ block.u32($0.field) }),
            let length = ifd1.entries[0x0202].flatMap({ block.u32($0.field) }), length > 4,
            offset + length <= block.bytes.count
        else { return nil }
        let jpeg = Data(block.bytes[offset..<offset + length])
        guard let (width, height) = FileFacts.jpegSize(jpeg) else { return nil }
        return ExifThumbnail(
            jpeg: jpeg, width: width, height: height, orientation: (1...8).contains(orientation) ? orientation : 1)
    }
}
