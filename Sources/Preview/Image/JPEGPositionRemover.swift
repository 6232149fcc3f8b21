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
            if marker == 0xE1, segment.starts(with: [0xFF, 0xE1, segment[2], segment[3]] + Array("Exif\0\0".utf8)) {
                do {
                    if try ExifPosition.erase(in: &segment, tiffStart: 10) { outcome.removedPosition = true }
                } catch {
                    throw malformed(file, "its Exif block cannot be read")
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
            payload.starts(with: Array("http://ns.adobe.com/xap/1.0/\0".utf8))
            || payload.starts(with: Array("http://ns.adobe.com/xmp/extension/\0".utf8))
        guard isXMP else { return false }
        let gps = Array("GPS".utf8)
        return payload.indices.contains { start in
            start + gps.count <= payload.endIndex && Array(payload[start..<start + gps.count]) == gps
        }
    }

    static func malformed(_ file: String, _ why: String) -> ImageError {
        .undecodable(file: file, message: "\(why): its position cannot be removed surely")
    }
}

/// The GPS directory of an Exif (TIFF) block, found and erased in place.
enum ExifPosition {
    /// The GPSInfo tag of the first directory.
    static let gpsInfoTag = 0x8825

    /// Erases the GPS directory of the TIFF block that starts at `tiffStart` of `segment`; whether there was one.
    static func erase(in segment: inout [UInt8], tiffStart: Int) throws(ImageError) -> Bool {
        var tiff = TIFFBytes(bytes: segment, start: tiffStart)
        guard tiff.count >= 8, let order = tiff.byteOrder else { throw JPEGPositionRemover.malformed("", "bad Exif") }
        tiff.bigEndian = order
        let first = try tiff.u32(4)
        let count = try tiff.u16(first)
        var gpsEntry: Int?
        for number in 0..<count where try tiff.u16(first + 2 + 12 * number) == gpsInfoTag { gpsEntry = number }
        guard let gpsEntry else { return false }
        let gpsDirectory = try tiff.u32(first + 2 + 12 * gpsEntry + 8)
        try eraseDirectory(at: gpsDirectory, in: &tiff)
        // The entry goes from the first directory: the ones after it move up, the pointer to the next directory
        // too, and the 12 bytes freed at the end are zeroed.
        let entries = first + 2
        let tail = entries + 12 * count + 4
        guard tail <= tiff.count else { throw JPEGPositionRemover.malformed("", "bad Exif") }
        let from = entries + 12 * (gpsEntry + 1)
        tiff.move(from..<tail, to: entries + 12 * gpsEntry)
        tiff.zero(tail - 12..<tail)
        tiff.setU16(first, count - 1)
        segment = tiff.bytes
        return true
    }

    /// Zeroes a directory's entries and the values they point to.
    private static func eraseDirectory(at offset: Int, in tiff: inout TIFFBytes) throws(ImageError) {
        let count = try tiff.u16(offset)
        let end = offset + 2 + 12 * count + 4
        guard end <= tiff.count else { throw JPEGPositionRemover.malformed("", "bad GPS directory") }
        for number in 0..<count {
            let entry = offset + 2 + 12 * number
            let size = Self.size(ofType: try tiff.u16(entry + 2)) * (try tiff.u32(entry + 4))
            if size > 4 {
                let value = try tiff.u32(entry + 8)
                guard value + size <= tiff.count else { throw JPEGPositionRemover.malformed("", "bad GPS value") }
                tiff.zero(value..<value + size)
            }
        }
        tiff.zero(offset..<end)
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

/// A TIFF block inside a larger buffer, read and written at offsets relative to its start.
struct TIFFBytes {
    var bytes: [UInt8]
    let start: Int
    var bigEndian = false

    init(bytes: [UInt8], start: Int) {
        self.bytes = bytes
        self.start = start
    }

    var count: Int { bytes.count - start }

    /// True for `MM` (big-endian), false for `II`, nil for neither.
    var byteOrder: Bool? {
        guard count >= 4 else { return nil }
        switch (bytes[start], bytes[start + 1]) {
        case (0x4D, 0x4D): return true
        case (0x49, 0x49): return false
        default: return nil
        }
    }

    func u16(_ offset: Int) throws(ImageError) -> Int {
        guard offset >= 0, offset + 2 <= count else { throw JPEGPositionRemover.malformed("", "bad Exif offset") }
        let (a, b) = (Int(bytes[start + offset]), Int(bytes[start + offset + 1]))
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    func u32(_ offset: Int) throws(ImageError) -> Int {
        guard offset >= 0, offset + 4 <= count else { throw JPEGPositionRemover.malformed("", "bad Exif offset") }
        let values = (0..<4).map { Int(bytes[start + offset + $0]) }
        return bigEndian
            ? values[0] << 24 | values[1] << 16 | values[2] << 8 | values[3]
            : values[3] << 24 | values[2] << 16 | values[1] << 8 | values[0]
    }

    mutating func setU16(_ offset: Int, _ value: Int) {
        let (high, low) = (UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
        bytes[start + offset] = bigEndian ? high : low
        bytes[start + offset + 1] = bigEndian ? low : high
    }

    mutating func zero(_ range: Range<Int>) {
        for offset in range { bytes[start + offset] = 0 }
    }

    /// Copies `range` to begin at `destination` (earlier than its start).
    mutating func move(_ range: Range<Int>, to destination: Int) {
        for (step, offset) in range.enumerated() { bytes[start + destination + step] = bytes[start + offset] }
    }
}
