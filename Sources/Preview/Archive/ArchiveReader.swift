/// One member of an archive as listed without extracting it.
public struct ArchiveMember: Hashable, Sendable {
    /// The member's path as stored.
    public var path: String
    /// Uncompressed size, when the archive records it.
    public var size: Int64?
    /// True for folder members.
    public var isDirectory: Bool
    /// Modification time, seconds since 1970.
    public var mtime: Int64
}

/// Lists archives (zip, tar and its compressions, 7z, …) through an owned libarchive reader.
public final class ArchiveReader {
    private let handle: OpaquePointer
    private let path: String
    /// The format libarchive detected, e.g. `ZIP 2.0 (deflation)`; set once the first header is read.
    public private(set) var formatName: String?

    /// Opens `path` for listing; every format and filter libarchive supports is enabled.
    public init(path: String) throws(ArchiveError) {
        guard let handle = ArchiveCalls.newReader() else { throw .allocationFailed }
        ArchiveCalls.enableAllFormats(handle)
        guard ArchiveCalls.open(handle, path: path, blockSize: 64 * 1024) == ArchiveCalls.ok else {
            let message = ArchiveCalls.errorString(handle)
            ArchiveCalls.free(handle)
            throw .openFailed(file: path, message: message)
        }
        self.handle = handle
        self.path = path
    }

    deinit { ArchiveCalls.free(handle) }

    /// The libarchive version string, e.g. `libarchive 3.6.2`.
    public static var libraryVersion: String { ArchiveCalls.version() }

    /// Reads every header, skipping member data, and returns the members in archive order.
    public func members() throws(ArchiveError) -> [ArchiveMember] {
        var result: [ArchiveMember] = []
        while true {
            var entry: OpaquePointer?
            let status = ArchiveCalls.nextHeader(handle, &entry)
            if status == ArchiveCalls.eof { break }
            guard status == ArchiveCalls.ok || status == ArchiveCalls.warn, let entry else {
                throw .readFailed(file: path, entries: result.count, message: ArchiveCalls.errorString(handle))
            }
            formatName = formatName ?? ArchiveCalls.formatName(handle)
            result.append(
                ArchiveMember(
                    path: ArchiveCalls.entryPath(entry) ?? "",
                    size: ArchiveCalls.entrySize(entry),
                    isDirectory: ArchiveCalls.entryIsDirectory(entry),
                    mtime: ArchiveCalls.entryMtime(entry)))
            guard ArchiveCalls.skipData(handle) == ArchiveCalls.ok else {
                throw .readFailed(file: path, entries: result.count, message: ArchiveCalls.errorString(handle))
            }
        }
        return result
    }
}
