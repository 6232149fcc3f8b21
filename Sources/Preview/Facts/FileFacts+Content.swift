import Foundation

extension FileFacts {
    /// Up to three lines from the start, each cut at 120 characters.
    package static func firstLines(_ prefix: Data) -> [String] {
        String(decoding: prefix.prefix(4096), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .prefix(3).map { String($0.prefix(120)) }.filter { !$0.isEmpty }
    }
    /// The page count when it is cheaply known: the root `/Type /Pages` dictionary's `/Count` in the first
    /// 64 KiB (where linearized and most small PDFs keep it). nil otherwise; no parsing of the whole file.
    package static func pdfPageCount(_ prefix: Data) -> Int? {
        let text = String(decoding: prefix, as: Unicode.ASCII.self)
        var best: Int?
        var searchStart = text.startIndex
        while let range = text.range(of: "/Type /Pages", range: searchStart..<text.endIndex) ?? text.range(of: "/Type/Pages", range: searchStart..<text.endIndex) {
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
            func be32(_ at: Int) -> Int { Int(b[at]) << 24 | Int(b[at + 1]) << 16 | Int(b[at + 2]) << 8 | Int(b[at + 3]) }
            return (be32(16), be32(20))
        case "image/gif" where b.count >= 10:
            return (Int(b[6]) | Int(b[7]) << 8, Int(b[8]) | Int(b[9]) << 8)
        default:
            return nil
        }
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
