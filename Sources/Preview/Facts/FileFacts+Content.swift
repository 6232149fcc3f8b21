import Foundation

extension FileFacts {
    /// Up to three lines from the start, each cut at 120 characters.
    package static func firstLines(_ prefix: Data) -> [String] {
        // Cut at newline bytes (one never sits inside another character), only the three lines decoded; a CRLF
        // ends a line too (as one Character it was never a "\n", and a Windows file came as one long line).
        let head = prefix.prefix(4096)
        var lines: [String] = []
        var start = head.startIndex
        for _ in 0..<3 {
            let end = head[start...].firstIndex(of: UInt8(ascii: "\n")) ?? head.endIndex
            var line = head[start..<end]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            let text = String(decoding: line, as: UTF8.self)
            if !text.isEmpty { lines.append(String(text.prefix(120))) }
            guard end < head.endIndex else { break }
            start = head.index(after: end)
        }
        return lines
    }
    /// The page count when it is cheaply known: the root `/Type /Pages` dictionary's `/Count` in the first
    /// 64 KiB (where linearized and most small PDFs keep it). nil otherwise; no parsing of the whole file.
    package static func pdfPageCount(_ prefix: Data) -> Int? {
        let text = String(decoding: prefix, as: Unicode.ASCII.self)
        var best: Int?
        var searchStart = text.startIndex
        while let range = text.range(of: "/Type /Pages", range: searchStart..<text.endIndex)
            ?? text.range(of: "/Type/Pages", range: searchStart..<text.endIndex)
        {
            // The dictionary around the match: up to its closing '>>'.
            let open = text[..<range.lowerBound].range(of: "<<", options: .backwards)?.lowerBound ?? range.lowerBound
            let close = text[range.upperBound...].range(of: ">>")?.upperBound ?? text.endIndex
            let dictionary = text[open..<close]
            if let count = dictionary.range(of: "/Count") {
                let digits = dictionary[count.upperBound...].drop { $0 == " " }.prefix { $0.isNumber }
                if let value = Int(digits) { best = max(best ?? 0, value) }  // the root holds the largest count
            }
            searchStart = range.upperBound
        }
        return best
    }
    /// Width and height from a PNG's IHDR or a GIF's logical screen descriptor.
    package static func plainImageSize(_ mime: String, _ bytes: Data) -> (Int, Int)? {
        let b = [UInt8](bytes.prefix(32))
        switch mime {
        case "image/png" where b.count >= 24:
            func be32(_ at: Int) -> Int {
                Int(b[at]) << 24 | Int(b[at + 1]) << 16 | Int(b[at + 2]) << 8 | Int(b[at + 3])
            }
            return (be32(16), be32(20))
        case "image/gif" where b.count >= 10:
            return (Int(b[6]) | Int(b[7]) << 8, Int(b[8]) | Int(b[9]) << 8)
        default:
            return nil
        }
    }

    /// Width and height from a JPEG's start-of-frame marker, walking the segments before it (APPn, EXIF with its
    /// thumbnail, tables) by their lengths; nil when the frame header is not within `bytes`.
    package static func jpegSize(_ bytes: Data) -> (Int, Int)? {
        jpegImageFacts(bytes).map { ($0.width, $0.height) }
    }

    /// A JPEG's size and EXIF facts from its first bytes: the segments before the frame header, walked by their
    /// lengths, the first `Exif` APP1 read as ``ExifTags``. Nil when the frame header is not within `bytes` (the
    /// image plug-in reads such a file). What libvips would say of it, without loading it: `info` over a folder
    /// of photos, and an app without an image plug-in.
    package static func jpegImageFacts(_ bytes: Data) -> ImageFacts? {
        let b = [UInt8](bytes)
        guard b.count > 4, b[0] == 0xFF, b[1] == 0xD8 else { return nil }
        var exif: ExifTags?
        var at = 2
        while at + 4 <= b.count {
            guard b[at] == 0xFF else { return nil }
            let marker = b[at + 1]
            if marker == 0xFF { at += 1; continue }  // fill bytes
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { at += 2; continue }  // no length
            let length = Int(b[at + 2]) << 8 | Int(b[at + 3])
            guard length >= 2 else { return nil }
            // SOF0–SOF15 but DHT (C4), JPG (C8) and DAC (CC): precision, height, width.
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard at + 9 <= b.count else { return nil }
                let height = Int(b[at + 5]) << 8 | Int(b[at + 6])
                let width = Int(b[at + 7]) << 8 | Int(b[at + 8])
                guard width > 0, height > 0 else { return nil }
                return ImageFacts(
                    width: width, height: height, orientation: exif?.orientation ?? 1, camera: exif?.camera,
                    taken: exif?.taken, hasGPS: exif?.hasGPS ?? false, latitude: exif?.latitude,
                    longitude: exif?.longitude)
            }
            if marker == 0xDA || marker == 0xD9 { return nil }  // scan data or end before any frame header
            if marker == 0xE1, exif == nil, at + 2 + length <= b.count, length >= 8,
                b[(at + 4)..<(at + 10)].elementsEqual("Exif\0\0".utf8)
            {
                exif = ExifTags(tiff: Array(b[(at + 10)..<(at + 2 + length)]))
            }
            at += 2 + length
        }
        return nil
    }

    /// Lines in text whose newlines number `newlines`: a last line without a newline counts too.
    static func lines(newlines: Int, lastByte: UInt8?) -> Int {
        guard let lastByte else { return 0 }
        return newlines + (lastByte == UInt8(ascii: "\n") ? 0 : 1)
    }

    static func newlineCount(_ bytes: Data) -> Int { bytes.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) } }

    static func lineCount(_ bytes: Data) -> Int { lines(newlines: newlineCount(bytes), lastByte: bytes.last) }

    static func countLines(_ path: String) throws -> Int {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var newlines = 0
        var last: UInt8?
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            newlines += newlineCount(chunk)
            last = chunk.last
        }
        return lines(newlines: newlines, lastByte: last)
    }
}
