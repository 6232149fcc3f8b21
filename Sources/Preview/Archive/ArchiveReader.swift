/// One member of an archive as listed without extracting it.
package struct ArchiveMember: Hashable, Sendable, Codable {
    /// What kind of member it is.
    package enum Kind: String, Sendable, Codable {
        /// A regular file.
        case file
        /// A folder.
        case directory
        /// A symbolic link (see `linkTarget`).
        case symlink
        /// A hard link to another member (see `linkTarget`).
        case hardlink
        /// A device, FIFO or socket.
        case special
    }

    /// The member's path as stored.
    package var path: String
    /// Its kind.
    package var kind: Kind
    /// Uncompressed size, when the archive records it.
    package var size: Int64?
    /// Permission bits.
    package var mode: Int
    /// Modification time, seconds since 1970.
    package var mtime: Int64
    /// Target of a symlink or hard link.
    package var linkTarget: String?
    /// Encrypted data (zip, 7z, rar).
    package var encrypted: Bool

    /// True for folder members.
    package var isDirectory: Bool { kind == .directory }
}

/// Lists and reads archives (zip, tar and its compressions, 7z, rar, iso, cpio, …) through an owned
/// libarchive reader. Listing skips member data without decompressing it where the format allows
/// (zip is read through its central directory when the file is seekable).
package final class ArchiveReader {
    private let handle: OpaquePointer
    private let path: String
    /// For an archive read from a byte source: the callbacks' state, alive as long as the handle.
    private let cursor: ByteSourceCursor?
    /// The format libarchive detected, e.g. `ZIP 2.0 (deflation)`; set once the first header is read.
    package private(set) var formatName: String?

    /// Opens `path`; every format and filter libarchive supports is enabled.
    package init(path: String) throws(ArchiveError) {
        guard let handle = ArchiveCalls.newReader() else { throw .allocationFailed }
        ArchiveCalls.enableAllFormats(handle)
        guard ArchiveCalls.open(handle, path: path, blockSize: 64 * 1024) == ArchiveCalls.ok else {
            let message = ArchiveCalls.errorString(handle)
            ArchiveCalls.free(handle)
            throw .openFailed(file: path, message: message)
        }
        self.handle = handle
        self.path = path
        cursor = nil
    }

    /// Opens an archive whose bytes come from `source` (a remote file read by ranges); `name` names it in
    /// errors. A failure of the source is thrown as it is, not as libarchive's message.
    /// Without `seekable`, the source is read from start to end only (a zip as a stream of local headers).
    package init(source: any ByteSource, name: String, seekable: Bool = true) throws {
        guard let handle = ArchiveCalls.newReader() else { throw ArchiveError.allocationFailed }
        ArchiveCalls.enableAllFormats(handle)
        let cursor = ByteSourceCursor(source, bufferSize: 256 << 10)
        guard ArchiveCalls.open(handle, cursor: cursor, seekable: seekable) == ArchiveCalls.ok else {
            let message = ArchiveCalls.errorString(handle)
            ArchiveCalls.free(handle)
            if let failure = cursor.failure { throw failure }
            throw ArchiveError.openFailed(file: name, message: message)
        }
        self.handle = handle
        path = name
        self.cursor = cursor
    }

    deinit { ArchiveCalls.free(handle) }

    /// The byte source's own error when it is why libarchive failed (a network failure, a changed file).
    package var sourceFailure: (any Error)? { cursor?.failure }

    /// The libarchive version string, e.g. `libarchive 3.6.2`.
    package static var libraryVersion: String { ArchiveCalls.version() }

    /// Reads every header, skipping member data, and returns the members in archive order.
    package func members() throws(ArchiveError) -> [ArchiveMember] {
        var result: [ArchiveMember] = []
        while let member = try nextMember(count: result.count) {
            result.append(member)
            guard ArchiveCalls.skipData(handle) == ArchiveCalls.ok else {
                throw .readFailed(file: path, entries: result.count, message: ArchiveCalls.errorString(handle))
            }
        }
        return result
    }

    /// Streams the data of the member at `entryPath` to `write`, at most `limit` bytes; false when no such member.
    package func read(member entryPath: String, limit: Int64, _ write: (UnsafeRawBufferPointer) -> Void)
        throws(ArchiveError) -> Bool
    {
        var count = 0
        while let member = try nextMember(count: count) {
            count += 1
            guard Self.samePath(member.path, entryPath) else {
                guard ArchiveCalls.skipData(handle) == ArchiveCalls.ok else {
                    throw .readFailed(file: path, entries: count, message: ArchiveCalls.errorString(handle))
                }
                continue
            }
            guard member.kind == .file else { throw .notAFile(file: path, entry: entryPath) }
            if member.encrypted { throw .encrypted(file: path, entry: entryPath) }
            // Refused up front when the header already says so; the count below catches headers that lie.
            if let size = member.size, size > limit { throw .tooLarge(file: path, entry: entryPath, limit: limit) }
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 16)
            defer { buffer.deallocate() }
            var total: Int64 = 0
            while true {
                let read = ArchiveCalls.readData(handle, into: buffer)
                if read == 0 { return true }
                guard read > 0 else {
                    throw .readFailed(file: path, entries: count, message: ArchiveCalls.errorString(handle))
                }
                total += Int64(read)
                guard total <= limit else { throw .tooLarge(file: path, entry: entryPath, limit: limit) }
                write(UnsafeRawBufferPointer(rebasing: buffer[0..<read]))
            }
        }
        return false
    }

    /// `./a/b`, `a/b` and `a/b/` name the same member.
    static func samePath(_ stored: String, _ asked: String) -> Bool {
        func clean(_ path: String) -> Substring {
            var path = Substring(path)
            while path.hasPrefix("./") { path = path.dropFirst(2) }
            while path.hasSuffix("/") { path = path.dropLast() }
            return path
        }
        return clean(stored) == clean(asked)
    }

    private func nextMember(count: Int) throws(ArchiveError) -> ArchiveMember? {
        var entry: OpaquePointer?
        let status = ArchiveCalls.nextHeader(handle, &entry)
        if status == ArchiveCalls.eof { return nil }
        guard status == ArchiveCalls.ok || status == ArchiveCalls.warn, let entry else {
            throw .readFailed(file: path, entries: count, message: ArchiveCalls.errorString(handle))
        }
        formatName = formatName ?? ArchiveCalls.formatName(handle)
        let kind: ArchiveMember.Kind
        let hardlink = ArchiveCalls.entryHardlink(entry)
        switch ArchiveCalls.entryFileType(entry) {
        case _ where hardlink != nil: kind = .hardlink
        case 0o100000: kind = .file
        case 0o040000: kind = .directory
        case 0o120000: kind = .symlink
        default: kind = .special
        }
        return ArchiveMember(
            path: ArchiveCalls.entryPath(entry) ?? "", kind: kind, size: ArchiveCalls.entrySize(entry),
            mode: ArchiveCalls.entryMode(entry), mtime: ArchiveCalls.entryMtime(entry),
            linkTarget: kind == .symlink ? ArchiveCalls.entrySymlink(entry) : hardlink,
            encrypted: ArchiveCalls.entryIsEncrypted(entry))
    }
}
