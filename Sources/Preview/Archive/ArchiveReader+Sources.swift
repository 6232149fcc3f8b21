extension ArchiveReader {
    /// Lists the archive `source` holds (a remote file read by ranges): a zip from its central directory alone
    /// (plus the few bytes of any symlink's target), any other format through libarchive from the start. A
    /// failure of the source is thrown as it is.
    package static func inspect(source: any ByteSource, name: String) throws -> ArchiveInspection {
        if source.size == 0 { throw ArchiveError.notAnArchive(file: name) }
        guard let zip = try ZipDirectory.read(source, name: name) else {
            let reader = try ArchiveReader(source: source, name: name)
            do {
                return try ArchiveInspection.inspect(reader, archiveSize: source.size)
            } catch {
                throw reader.sourceFailure ?? error
            }
        }
        var members = zip.entries.map(\.member)
        // A link's target is its data (the local header has no mode to say it is a link): read for the safety
        // report (links out), from that member's bytes only.
        for (index, entry) in zip.entries.enumerated()
        where entry.member.kind == .symlink && entry.compressedSize <= 64 << 10 {
            let window = try ZipDirectory.window(of: entry, in: source, name: name)
            let reader = try ArchiveReader(source: ByteSourceWindow(source, window), name: name, seekable: false)
            var target = [UInt8]()
            do {
                _ = try reader.read(member: entry.member.path, limit: 64 << 10) { target.append(contentsOf: $0) }
            } catch {
                throw reader.sourceFailure ?? error
            }
            members[index].linkTarget = String(decoding: target, as: UTF8.self)
        }
        return ArchiveInspection.inspect(members: members, formatName: zip.formatName, archiveSize: source.size)
    }

    /// Streams one member of the archive `source` holds to `write`, at most `limit` bytes; false when there is
    /// no such member. For a zip only that member's bytes are read (found in the central directory); other
    /// formats are read from the start up to the member.
    package static func read(
        member path: String, from source: any ByteSource, name: String, limit: Int64,
        _ write: (UnsafeRawBufferPointer) -> Void
    ) throws -> Bool {
        var reader: ArchiveReader
        if let zip = try ZipDirectory.read(source, name: name) {
            guard let entry = zip.entries.first(where: { samePath($0.member.path, path) }) else { return false }
            let window = try ZipDirectory.window(of: entry, in: source, name: name)
            reader = try ArchiveReader(source: ByteSourceWindow(source, window), name: name, seekable: false)
        } else {
            reader = try ArchiveReader(source: source, name: name)
        }
        do {
            return try reader.read(member: path, limit: limit, write)
        } catch {
            throw reader.sourceFailure ?? error
        }
    }
}
