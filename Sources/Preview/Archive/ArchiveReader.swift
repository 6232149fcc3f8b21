import FileModel

/// Lists and reads archives through the installed ``ArchiveReading`` plug-in (libarchive on Linux): zip, tar
/// and its compressions, 7z, rar, iso, cpio, … Listing skips member data without decompressing it where the
/// format allows.
package final class ArchiveReader {
    /// The archive plug-in, none until a program installs one.
    package static let plugin = PluginSlot<(any ArchiveReading)?>(nil)

    private let handle: any ArchiveHandle

    /// Opens `path`.
    package init(path: String) throws(ArchiveError) {
        guard let reading = Self.plugin.value else { throw .notAvailable(file: path) }
        handle = try reading.open(path: path)
    }

    /// Opens an archive whose bytes come from `source` (a remote file read by ranges); `name` names it in
    /// errors. A failure of the source is thrown as it is, not as the library's message.
    /// Without `seekable`, the source is read from start to end only (a zip as a stream of local headers).
    package init(source: any ByteSource, name: String, seekable: Bool = true) throws {
        guard let reading = Self.plugin.value else { throw ArchiveError.notAvailable(file: name) }
        handle = try reading.open(source: source, name: name, seekable: seekable)
    }

    /// The format detected, e.g. `ZIP 2.0 (deflation)`; set once the first header is read.
    package var formatName: String? { handle.formatName }

    /// The byte source's own error when it is why reading failed (a network failure, a changed file).
    package var sourceFailure: (any Error)? { handle.sourceFailure }

    /// The plug-in's library, e.g. `libarchive 3.6.2`.
    package static var libraryVersion: String { plugin.value?.libraryVersion ?? "no archive library" }

    /// Reads every header, skipping member data, and returns the members in archive order.
    package func members() throws(ArchiveError) -> [ArchiveMember] { try handle.members() }

    /// Streams the data of the member at `entryPath` to `write`, at most `limit` bytes; false when no such member.
    package func read(member entryPath: String, limit: Int64, _ write: (UnsafeRawBufferPointer) -> Void)
        throws(ArchiveError) -> Bool
    {
        try handle.read(member: entryPath, limit: limit, write)
    }

    /// `./a/b`, `a/b` and `a/b/` name the same member.
    package static func samePath(_ stored: String, _ asked: String) -> Bool {
        func clean(_ path: String) -> Substring {
            var path = Substring(path)
            while path.hasPrefix("./") { path = path.dropFirst(2) }
            while path.hasSuffix("/") { path = path.dropLast() }
            return path
        }
        return clean(stored) == clean(asked)
    }

}
