import Foundation

/// Removes the GPS position from a JPEG without an image library, for an app with no image plug-in: the Exif
/// block's GPS directory is unlinked from its first directory and its bytes (the entries and the values they
/// point to) zeroed in place, so every other tag, the orientation and the thumbnail keep their offsets; an XMP
/// packet that names a position is dropped. The pixels are not touched: the photo keeps its size and quality.
/// Anything it cannot read surely is refused (`undecodable`), never sent with its position.
package enum JPEGPositionRemover {
    /// What removing gave.
    package struct Outcome: Sendable, Equatable {
        /// The JPEG without its position.
        package var data: Data
        /// Its dimensions, from its frame header.
        package var width: Int
        package var height: Int
        /// A position was there (in Exif or XMP) and is gone.
        package var removedPosition: Bool
    }

    /// Whether `data` starts as a JPEG does.
    package static func isJPEG(_ data: Data) -> Bool { data.count > 3 && data.starts(with: [0xFF, 0xD8, 0xFF]) }

    /// The JPEG in `data` without a GPS position; `file` names it in a refusal.
    package static func removingPosition(from data: Data, file: String) throws(ImageError) -> Outcome {
        guard isJPEG(data) else { throw .unsupported(file: file, detail: "not a JPEG") }
        let bytes = [UInt8](data)
        var output: [UInt8] = [0xFF, 0xD8]
        output.reserveCapacity(bytes.count)
        var outcome = Outcome(data: Data(), width: 0, height: 0, removedPosition: false)
        var index = 2
        while index < bytes.count {
            guard bytes[index] == 0xFF, index + 1 < bytes.count else { throw malformed(file, "a marker is missing") }
            let marker = bytes[index + 1]
            if marker == 0xFF {  // fill byte
                index += 1
                continue
            }
            if marker == 0xDA || marker == 0xD9 {  // the scan (or the end): the rest goes as it is
                output += bytes[index...]
                break
            }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                output += bytes[index..<index + 2]
                index += 2
                continue
            }
            guard index + 4 <= bytes.count else { throw malformed(file, "a segment is cut short") }
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            let end = index + 2 + length
            guard length >= 2, end <= bytes.count else { throw malformed(file, "a segment is cut short") }
            var segment = Array(bytes[index..<end])
            if Self.isFrameHeader(marker), segment.count >= 9 {
                outcome.height = Int(segment[5]) << 8 | Int(segment[6])
                outcome.width = Int(segment[7]) << 8 | Int(segment[8])
            }
            if marker == 0xE1, segment.dropFirst(4).starts(with: "Exif\0\0".utf8) {
                // The TIFF block after the 10 bytes of marker, length and `Exif\0\0`.
                var tiff = Array(segment[10...])
                guard let erased = ExifPosition.erase(in: &tiff) else {
                    throw malformed(file, "its Exif block cannot be read")
                }
                if erased {
                    segment = Array(segment[..<10]) + tiff
                    outcome.removedPosition = true
                }
            } else if marker == 0xE1, Self.isXMPNamingPosition(segment) {
                outcome.removedPosition = true
                index = end
                continue
            }
            output += segment
            index = end
        }
        outcome.data = Data(output)
        return outcome
    }

    /// Whether the JPEG in `data` holds a position (an Exif GPS directory, an XMP packet naming one); true when it
    /// cannot be read surely.
    package static func holdsPosition(_ data: Data) -> Bool {
        guard let outcome = try? removingPosition(from: data, file: "") else { return true }
        return outcome.removedPosition
    }

    private static func isFrameHeader(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
    }

    /// An XMP packet (main or extended) that mentions GPS.
    private static func isXMPNamingPosition(_ segment: [UInt8]) -> Bool {
        let payload = segment.dropFirst(4)
        let isXMP =
            payload.starts(with: "http://ns.adobe.com/xap/1.0/\0".utf8)
            || payload.starts(with: "http://ns.adobe.com/xmp/extension/\0".utf8)
        return isXMP && Data(payload).range(of: Data("GPS".utf8)) != nil
    }

    static func malformed(_ file: String, _ why: String) -> ImageError {
        .undecodable(file: file, message: "\(why): its position cannot be removed surely")
    }
}

/// The GPS directory of an Exif (TIFF) block, found and erased in place; read through ``TIFFBlock``, which checks
/// every offset against the block.
enum ExifPosition {
    /// The GPSInfo tag of the first directory.
    static let gpsInfoTag = 0x8825

    /// Erases the GPS directory of the TIFF block `tiff`: the entries and the values they point to zeroed, the
    /// entry that links it unlinked from the first directory (the entries after it move up, the pointer to the next
    /// directory too, and the 12 bytes freed at the end are zeroed). Whether there was one; nil when the block
    /// cannot be read surely.
    static func erase(in tiff: inout [UInt8]) -> Bool? {
        guard let block = TIFFBlock(tiff), let first = block.firstIFD, let count = block.u16(first),
            let (entries, _) = block.ifd(first)
        else { return nil }
        guard let link = entries[gpsInfoTag] else { return false }
        guard let directory = block.u32(link.field), let gpsCount = block.u16(directory),
            let (gpsEntries, _) = block.ifd(directory)
        else { return nil }
        let tail = first + 2 + 12 * count + 4
        var erased = [directory..<directory + 2 + 12 * gpsCount + 4]
        for entry in gpsEntries.values where size(ofType: entry.type) * entry.count > 4 {
            guard let value = block.u32(entry.field) else { return nil }
            erased.append(value..<value + size(ofType: entry.type) * entry.count)
        }
        guard tail <= tiff.count, erased.allSatisfy({ $0.upperBound <= tiff.count }) else { return nil }
        for range in erased { tiff.replaceSubrange(range, with: repeatElement(0, count: range.count)) }
        let start = link.field - 8
        tiff.replaceSubrange(start..<tail, with: Array(tiff[start + 12..<tail]) + repeatElement(0, count: 12))
        let (high, low) = (UInt8(truncatingIfNeeded: (count - 1) >> 8), UInt8(truncatingIfNeeded: count - 1))
        (tiff[first], tiff[first + 1]) = block.little ? (low, high) : (high, low)
        return true
    }

    /// Bytes of one value of a TIFF type (unknown types count as 1).
    private static func size(ofType type: Int) -> Int {
        switch type {
        case 3, 8: 2
        case 4, 9, 11: 4
        case 5, 10, 12: 8
        default: 1
        }
    }
}
