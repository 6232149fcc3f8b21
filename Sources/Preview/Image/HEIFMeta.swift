import Foundation

/// What a HEIF/HEIC file's `meta` box says of its primary image, read by walking the top-level boxes by their
/// sizes (a large `mdat` is skipped, not read: the `meta` box may come after it) and then fetching the `Exif`
/// item alone. libheif reads the media data on the way, which for a remote photo is the whole file.
package struct HEIFMeta {
    var width: Int
    var height: Int
    /// Quarter turns anticlockwise the viewer applies (`irot`).
    var quarterTurns: Int
    var exif: ExifTags?

    /// The facts of the HEIF file `source` holds; nil when it is not one or has no `meta` box.
    package static func read(_ source: any ByteSource) throws -> HEIFMeta? {
        guard let (metaStart, metaSize) = try findMeta(source), metaSize <= 4 << 20 else { return nil }
        let meta = [UInt8](try source.bytes(at: metaStart, length: Int(metaSize)))
        guard meta.count == Int(metaSize) else { return nil }
        // A full box: version and flags, then its children.
        let children = Self.boxes(meta, from: 12, to: meta.count)
        guard let pitm = children["pitm"], let primary = Self.primaryItem(meta, pitm) else { return nil }
        var width = 0, height = 0, turns = 0
        if let iprp = children["iprp"] {
            let properties = Self.boxes(meta, from: iprp.start + 8, to: iprp.end)
            if let ipco = properties["ipco"], let ipma = properties["ipma"] {
                let list = Self.boxList(meta, from: ipco.start + 8, to: ipco.end)
                for index in Self.associations(meta, ipma, item: primary) where index >= 1 && index <= list.count {
                    let property = list[index - 1]
                    if property.kind == "ispe", property.start + 20 <= property.end {
                        width = Self.be32(meta, property.start + 12)
                        height = Self.be32(meta, property.start + 16)
                    } else if property.kind == "irot", property.start + 9 <= property.end {
                        turns = Int(meta[property.start + 8] & 3)
                    }
                }
            }
        }
        guard width > 0, height > 0 else { return nil }
        var exif: ExifTags?
        if let iinf = children["iinf"], let iloc = children["iloc"], let item = Self.exifItem(meta, iinf),
            let (offset, length) = Self.location(meta, iloc, item: item), length > 8, length <= 1 << 20
        {
            let data = [UInt8](try source.bytes(at: offset, length: length))
            // The item starts with the offset of the TIFF header after those four bytes.
            let skip = 4 + Self.be32(data, 0)
            if skip < data.count { exif = ExifTags(tiff: Array(data[skip...])) }
        }
        return HEIFMeta(width: width, height: height, quarterTurns: turns, exif: exif)
    }

    /// The `meta` box's offset and size, found by reading box headers only.
    private static func findMeta(_ source: any ByteSource) throws -> (Int64, Int64)? {
        var at: Int64 = 0
        var seen = 0
        while at + 8 <= source.size, seen < 64 {
            seen += 1
            let header = [UInt8](try source.bytes(at: at, length: 16))
            guard header.count >= 8 else { return nil }
            var size = Int64(be32(header, 0))
            let kind = String(decoding: header[4..<8], as: UTF8.self)
            if seen == 1, kind != "ftyp" { return nil }
            if size == 1, header.count == 16 {
                size = Int64(be32(header, 8)) << 32 | Int64(be32(header, 12))
            } else if size == 0 {
                size = source.size - at
            }
            guard size >= 8 else { return nil }
            if kind == "meta" { return (at, size) }
            at += size
        }
        return nil
    }

    private struct Box {
        var kind: String
        var start: Int
        var end: Int
    }

    private static func boxList(_ b: [UInt8], from: Int, to: Int) -> [Box] {
        var result: [Box] = []
        var at = from
        while at + 8 <= to {
            let size = be32(b, at)
            guard size >= 8, at + size <= to else { break }
            result.append(Box(kind: String(decoding: b[at + 4..<at + 8], as: UTF8.self), start: at, end: at + size))
            at += size
        }
        return result
    }

    private static func boxes(_ b: [UInt8], from: Int, to: Int) -> [String: Box] {
        Dictionary(boxList(b, from: from, to: to).map { ($0.kind, $0) }, uniquingKeysWith: { first, _ in first })
    }

    private static func primaryItem(_ b: [UInt8], _ pitm: Box) -> Int? {
        guard pitm.start + 14 <= pitm.end else { return nil }
        return b[pitm.start + 8] == 0
            ? be16(b, pitm.start + 12) : (pitm.start + 16 <= pitm.end ? be32(b, pitm.start + 12) : nil)
    }

    /// The property indices (1-based) associated with `item` in an `ipma` box.
    private static func associations(_ b: [UInt8], _ ipma: Box, item: Int) -> [Int] {
        guard ipma.start + 16 <= ipma.end else { return [] }
        let version = b[ipma.start + 8]
        let wide = b[ipma.start + 11] & 1 != 0
        let count = be32(b, ipma.start + 12)
        var at = ipma.start + 16
        for _ in 0..<min(count, 100_000) {
            let id = version < 1 ? be16(b, at) : be32(b, at)
            at += version < 1 ? 2 : 4
            guard at < ipma.end else { return [] }
            let n = Int(b[at])
            at += 1
            var indices: [Int] = []
            for _ in 0..<n {
                guard at + (wide ? 2 : 1) <= ipma.end else { return [] }
                indices.append(wide ? be16(b, at) & 0x7FFF : Int(b[at] & 0x7F))
                at += wide ? 2 : 1
            }
            if id == item { return indices }
        }
        return []
    }

    /// The id of the item of type `Exif` in an `iinf` box.
    private static func exifItem(_ b: [UInt8], _ iinf: Box) -> Int? {
        guard iinf.start + 12 <= iinf.end else { return nil }
        let first = iinf.start + (b[iinf.start + 8] == 0 ? 14 : 16)
        for infe in boxList(b, from: first, to: iinf.end) where infe.kind == "infe" && infe.start + 20 <= infe.end {
            let version = b[infe.start + 8]
            guard version >= 2 else { continue }
            let idSize = version == 2 ? 2 : 4
            let id = idSize == 2 ? be16(b, infe.start + 12) : be32(b, infe.start + 12)
            let typeAt = infe.start + 12 + idSize + 2
            guard typeAt + 4 <= infe.end else { continue }
            if String(decoding: b[typeAt..<typeAt + 4], as: UTF8.self) == "Exif" { return id }
        }
        return nil
    }

    /// The file offset and length of `item`'s first extent in an `iloc` box (file-based items only).
    private static func location(_ b: [UInt8], _ iloc: Box, item: Int) -> (Int64, Int)? {
        var at = iloc.start + 8
        guard at + 8 <= iloc.end else { return nil }
        let version = b[at]
        at += 4
        let offsetSize = Int(b[at] >> 4), lengthSize = Int(b[at] & 15)
        let baseSize = Int(b[at + 1] >> 4), indexSize = version >= 1 ? Int(b[at + 1] & 15) : 0
        at += 2
        func read(_ size: Int) -> Int? {
            guard at + size <= iloc.end else { return nil }
            var value = 0
            for index in 0..<size { value = value << 8 | Int(b[at + index]) }
            at += size
            return value
        }
        guard let count = read(version == 2 ? 4 : 2) else { return nil }
        for _ in 0..<min(count, 100_000) {
            guard let id = read(version == 2 ? 4 : 2) else { return nil }
            let method = version >= 1 ? (read(2) ?? 0) & 15 : 0
            guard read(2) != nil, let base = read(baseSize), let extents = read(2) else { return nil }
            var first: (Int64, Int)?
            for _ in 0..<extents {
                guard read(indexSize) != nil, let offset = read(offsetSize), let length = read(lengthSize) else {
                    return nil
                }
                if first == nil { first = (Int64(base + offset), length) }
            }
            if id == item { return method == 0 ? first : nil }
        }
        return nil
    }

    private static func be16(_ b: [UInt8], _ at: Int) -> Int {
        at + 2 <= b.count ? Int(b[at]) << 8 | Int(b[at + 1]) : 0
    }
    private static func be32(_ b: [UInt8], _ at: Int) -> Int {
        at + 4 <= b.count ? be16(b, at) << 16 | be16(b, at + 2) : 0
    }
}
