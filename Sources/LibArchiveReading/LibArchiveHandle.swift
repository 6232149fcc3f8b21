import Foundation
import Preview

/// Lists and reads archives (zip, tar and its compressions, 7z, rar, iso, cpio, …) through an owned
/// libarchive reader. Listing skips member data without decompressing it where the format allows
/// (zip is read through its central directory when the file is seekable).
final class LibArchiveHandle: ArchiveHandle {
    private let handle: OpaquePointer
    private let path: String
    /// For an archive read from a byte source: the callbacks' state, alive as long as the handle.
    private let cursor: ByteSourceCursor?
    /// The format libarchive detected, e.g. `ZIP 2.0 (deflation)`; set once the first header is read.
    private(set) var formatName: String?

    /// libarchive's refusal to open, in our terms: bytes in no format it knows are "not an archive" (its words for
    /// that, "Unrecognized archive format", are its own); anything else keeps its message.
    static func openError(file: String, message: String) -> ArchiveError {
        message.contains("Unrecognized archive format")
            ? .notAnArchive(file: file) : .openFailed(file: file, message: message)
    }

    /// Opens `path`; every format and filter libarchive supports is enabled.
    init(path: String) throws(ArchiveError) {
        guard let handle = ArchiveCalls.newReader() else { throw .allocationFailed }
        ArchiveCalls.enableAllFormats(handle)
        guard ArchiveCalls.open(handle, path: path, blockSize: 64 * 1024) == ArchiveCalls.ok else {
            let message = ArchiveCalls.errorString(handle)
            ArchiveCalls.free(handle)
            throw Self.openError(file: path, message: message)
        }
        self.handle = handle
        self.path = path
        cursor = nil
    }

    /// Opens an archive whose bytes come from `source` (a remote file read by ranges); `name` names it in
    /// errors. A failure of the source is thrown as it is, not as libarchive's message.
    /// Without `seekable`, the source is read from start to end only (a zip as a stream of local headers).
    init(source: any ByteSource, name: String, seekable: Bool) throws {
        guard let handle = ArchiveCalls.newReader() else { throw ArchiveError.allocationFailed }
        ArchiveCalls.enableAllFormats(handle)
        let cursor = ByteSourceCursor(source, bufferSize: 256 << 10)
        guard ArchiveCalls.open(handle, cursor: cursor, seekable: seekable) == ArchiveCalls.ok else {
            let message = ArchiveCalls.errorString(handle)
            ArchiveCalls.free(handle)
            if let failure = cursor.failure { throw failure }
            throw Self.openError(file: name, message: message)
        }
        self.handle = handle
        path = name
        self.cursor = cursor
    }

    deinit { ArchiveCalls.free(handle) }

    /// The byte source's own error when it is why libarchive failed (a network failure, a changed file).
    var sourceFailure: (any Error)? { cursor?.failure }

    /// Reads every header, skipping member data, and returns the members in archive order.
    func members() throws(ArchiveError) -> [ArchiveMember] {
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
    func read(member entryPath: String, limit: Int64, _ write: (UnsafeRawBufferPointer) -> Void)
        throws(ArchiveError) -> Bool
    {
        var count = 0
        while let member = try nextMember(count: count) {
            count += 1
            guard ArchiveReader.samePath(member.path, entryPath) else {
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
