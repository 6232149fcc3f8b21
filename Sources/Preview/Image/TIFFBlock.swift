/// A TIFF-structured block (what EXIF is, in a JPEG's APP1 segment or a HEIF `Exif` item): the byte order its
/// header names, and integers and IFDs read with every offset checked against the block, so a hostile file
/// gives nil, never a crash. Offsets are from the block's first byte, as TIFF counts them.
struct TIFFBlock {
    /// One IFD entry: its type, its count, and where its 4-byte value field sits.
    struct Entry {
        var type: Int
        var count: Int
        var field: Int
    }

    let bytes: [UInt8]
    let little: Bool

    /// The block that starts with `II*\0` or `MM\0*`; nil for anything else.
    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 8, bytes[0] == bytes[1], bytes[0] == 0x49 || bytes[0] == 0x4D else { return nil }
        self.bytes = bytes
        little = bytes[0] == 0x49
    }

    func u16(_ at: Int) -> Int? {
        guard at >= 0, at + 2 <= bytes.count else { return nil }
        return little ? Int(bytes[at]) | Int(bytes[at + 1]) << 8 : Int(bytes[at]) << 8 | Int(bytes[at + 1])
    }

    func u32(_ at: Int) -> Int? {
        guard let low = u16(little ? at : at + 2), let high = u16(little ? at + 2 : at) else { return nil }
        return low | high << 16
    }

    /// The offset of the first IFD.
    var firstIFD: Int? { u32(4) }

    /// The entries of the IFD at `offset` by tag, and the offset of the next IFD (0 when there is none).
    func ifd(_ offset: Int) -> (entries: [Int: Entry], next: Int)? {
        guard offset >= 8, let count = u16(offset), count < 1000, offset + 2 + count * 12 <= bytes.count else {
            return nil
        }
        var entries: [Int: Entry] = [:]
        for index in 0..<count {
            let entry = offset + 2 + index * 12
            if let tag = u16(entry), let type = u16(entry + 2), let count = u32(entry + 4) {
                entries[tag] = Entry(type: type, count: count, field: entry + 8)
            }
        }
        return (entries, u32(offset + 2 + count * 12) ?? 0)
    }
}
