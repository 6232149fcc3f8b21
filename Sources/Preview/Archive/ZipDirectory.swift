import Foundation

/// A zip's central directory, read from the end of the archive and nothing else: the end-of-central-directory
/// record (and its zip64 form), then the directory itself in one read. libarchive's seekable zip reader also
/// visits every member's local header, which for a remote archive is one request per member; this reads what
/// a listing needs from the directory alone. Reading a member's bytes goes back to libarchive, on a window
/// of the archive that holds just that member (``ZipDirectory/Entry/window``).
package struct ZipDirectory: Sendable {
    /// One member as the central directory records it.
    package struct Entry: Sendable {
        /// The member as a listing shows it.
        package var member: ArchiveMember
        /// Where its local header starts.
        package var localHeaderOffset: Int64
        /// Its compressed size.
        package var compressedSize: Int64
    }

    /// The members in directory order.
    package var entries: [Entry]
    /// The format as libarchive names it for a local zip (`ZIP 2.0`, `ZIP 4.5` for zip64): the version needed
    /// to extract the first member.
    package var formatName: String

    /// The most of the archive's end searched for the end record (its comment can be 64 KiB long).
    static let endSearch = 22 + 0xFFFF

    /// Reads the directory of the zip `source` holds; nil when it is not a zip (no end record), so another
    /// reader can try. A directory that is there but damaged throws.
    package static func read(_ source: any ByteSource, name: String) throws -> ZipDirectory? {
        let size = source.size
        guard size >= 22 else { return nil }
        let tailStart = max(0, size - Int64(endSearch))
        let tail = try source.bytes(at: tailStart, length: Int(size - tailStart))
        guard let end = lastSignature(0x0605_4b50, in: tail, minimumLength: 22) else { return nil }
        var count = Int64(tail.le16(end + 10))
        var directorySize = Int64(tail.le32(end + 12))
        var directoryOffset = Int64(tail.le32(end + 16))
        // A zip64 archive says so with all-ones fields and a locator right before the end record.
        if count == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF, end >= 20,
            tail.le32(end - 20) == 0x0706_4b50
        {
            let recordOffset = Int64(tail.le64(end - 20 + 8))
            let record = try source.bytes(at: recordOffset, length: 56)
            guard record.count == 56, record.le32(0) == 0x0606_4b50 else {
                throw damaged(name, "zip64 end record missing")
            }
            count = Int64(record.le64(32))
            directorySize = Int64(record.le64(40))
            directoryOffset = Int64(record.le64(48))
        }
        guard directoryOffset >= 0, directorySize >= 0, directorySize <= 1 << 30,
            directoryOffset + directorySize <= size,
            count <= directorySize / 46 + 1
        else {
            throw damaged(name, "central directory out of bounds")
        }
        let directory = try source.bytes(at: directoryOffset, length: Int(directorySize))
        guard directory.count == Int(directorySize) else { throw damaged(name, "central directory cut short") }
        var entries: [Entry] = []
        entries.reserveCapacity(Int(count))
        var formatName = "ZIP 2.0"
        var at = 0
        while entries.count < count {
            guard at + 46 <= directory.count, directory.le32(at) == 0x0201_4b50 else {
                throw damaged(name, "central directory entry \(entries.count + 1) malformed")
            }
            let madeBy = directory.le16(at + 4)
            if entries.isEmpty {
                let needed = max(20, Int(directory.le16(at + 6) & 0xFF))
                formatName = "ZIP \(needed / 10).\(needed % 10)"
            }
            let flags = directory.le16(at + 8)
            let dosTime = directory.le16(at + 12)
            let dosDate = directory.le16(at + 14)
            var compressed = Int64(directory.le32(at + 20))
            var uncompressed = Int64(directory.le32(at + 24))
            let nameLength = Int(directory.le16(at + 28))
            let extraLength = Int(directory.le16(at + 30))
            let commentLength = Int(directory.le16(at + 32))
            let external = directory.le32(at + 38)
            var offset = Int64(directory.le32(at + 42))
            let nameStart = at + 46
            guard nameStart + nameLength + extraLength + commentLength <= directory.count else {
                throw damaged(name, "central directory entry \(entries.count + 1) cut short")
            }
            let path = String(
                decoding: directory[directory.startIndex + nameStart..<directory.startIndex + nameStart + nameLength],
                as: UTF8.self)
            var mtime = dosDateTime(date: dosDate, time: dosTime)
            // Extra fields: zip64 sizes and offset (only those set to all ones, in this order), Info-ZIP UTC time.
            var extra = nameStart + nameLength
            let extraEnd = extra + extraLength
            while extra + 4 <= extraEnd {
                let id = directory.le16(extra)
                let length = Int(directory.le16(extra + 2))
                let body = extra + 4
                guard body + length <= extraEnd else { break }
                if id == 0x0001 {
                    var field = body
                    if uncompressed == 0xFFFF_FFFF, field + 8 <= body + length {
                        uncompressed = Int64(directory.le64(field)); field += 8
                    }
                    if compressed == 0xFFFF_FFFF, field + 8 <= body + length {
                        compressed = Int64(directory.le64(field)); field += 8
                    }
                    if offset == 0xFFFF_FFFF, field + 8 <= body + length { offset = Int64(directory.le64(field)) }
                } else if id == 0x5455, length >= 5, directory[directory.startIndex + body] & 1 != 0 {
                    mtime = Int64(Int32(bitPattern: directory.le32(body + 1)))
                }
                extra = body + length
            }
            let unixMode = (madeBy >> 8) == 3 ? Int(external >> 16) : 0
            let kind: ArchiveMember.Kind =
                switch unixMode & 0o170000 {
                case 0o040000: .directory
                case 0o120000: .symlink
                case 0o100000: .file
                case 0: path.hasSuffix("/") ? .directory : .file
                default: .special
                }
            let mode = unixMode & 0o7777 != 0 ? unixMode & 0o7777 : (kind == .directory ? 0o755 : 0o644)
            entries.append(
                Entry(
                    member: ArchiveMember(
                        path: path, kind: kind, size: kind == .file ? uncompressed : 0, mode: mode, mtime: mtime,
                        linkTarget: nil,
                        encrypted: flags & 1 != 0),
                    localHeaderOffset: offset, compressedSize: compressed))
            at = extraEnd + commentLength
        }
        return ZipDirectory(entries: entries, formatName: formatName)
    }

    /// The first and last byte of `entry`'s local header and data (and a data descriptor after it), found from
    /// its local header: what a streaming zip reader needs to read that member alone.
    package static func window(of entry: Entry, in source: any ByteSource, name: String) throws -> Range<Int64> {
        let header = try source.bytes(at: entry.localHeaderOffset, length: 30)
        guard header.count == 30, header.le32(0) == 0x0403_4b50 else {
            throw damaged(name, "no local header for \(entry.member.path)")
        }
        let start = entry.localHeaderOffset
        // Up to 24 bytes of data descriptor follow data whose sizes were not known up front.
        let end = start + 30 + Int64(header.le16(26)) + Int64(header.le16(28)) + entry.compressedSize + 24
        return start..<min(end, source.size)
    }

    /// A DOS date and time (local time, 2-second steps) as seconds since 1970.
    static func dosDateTime(date: UInt16, time: UInt16) -> Int64 {
        var parts = tm()
        parts.tm_year = Int32((date >> 9) & 0x7F) + 80
        parts.tm_mon = Int32((date >> 5) & 0x0F) - 1
        parts.tm_mday = Int32(date & 0x1F)
        parts.tm_hour = Int32((time >> 11) & 0x1F)
        parts.tm_min = Int32((time >> 5) & 0x3F)
        parts.tm_sec = Int32(time & 0x1F) * 2
        parts.tm_isdst = -1
        return Int64(mktime(&parts))
    }

    /// The offset of the last `signature` with room for `minimumLength` bytes after it.
    static func lastSignature(_ signature: UInt32, in data: Data, minimumLength: Int) -> Int? {
        var at = data.count - minimumLength
        while at >= 0 {
            if data.le32(at) == signature { return at }
            at -= 1
        }
        return nil
    }

    static func damaged(_ name: String, _ detail: String) -> ArchiveError {
        .readFailed(file: name, entries: 0, message: "zip: \(detail)")
    }
}

/// A window of another byte source, seen as a source of its own (one zip member for a streaming reader).
final class ByteSourceWindow: ByteSource {
    private let base: any ByteSource
    private let range: Range<Int64>

    init(_ base: any ByteSource, _ range: Range<Int64>) {
        self.base = base
        self.range = range
    }

    var size: Int64 { Int64(range.count) }

    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard offset < size else { return 0 }
        let count = Int(min(Int64(buffer.count), size - offset))
        return try base.read(
            at: range.lowerBound + offset, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count]))
    }
}

extension Data {
    /// Little-endian integers at a byte offset from the start.
    func le16(_ at: Int) -> UInt16 { UInt16(self[startIndex + at]) | UInt16(self[startIndex + at + 1]) << 8 }
    func le32(_ at: Int) -> UInt32 { UInt32(le16(at)) | UInt32(le16(at + 2)) << 16 }
    func le64(_ at: Int) -> UInt64 { UInt64(le32(at)) | UInt64(le32(at + 4)) << 32 }
}
