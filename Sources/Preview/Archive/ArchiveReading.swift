/// What lists and reads archives: a plug-in (libarchive's on Linux; an app's own, given in its front door's
/// configuration). Without one, reading an archive fails with ``ArchiveError/notAvailable(file:)``; a zip read by
/// ranges is still listed from its central directory, which needs no plug-in.
public protocol ArchiveReading: Sendable {
    /// The library behind it, for `--version`.
    var libraryVersion: String { get }
    /// Opens the archive at `path`.
    func open(path: String) throws(ArchiveError) -> any ArchiveHandle
    /// Opens the archive `source` holds; `name` names it in errors; without `seekable`, read from start to end.
    func open(source: any ByteSource, name: String, seekable: Bool) throws -> any ArchiveHandle
}

/// One open archive, read forward once.
public protocol ArchiveHandle: AnyObject {
    /// The format detected, e.g. `ZIP 2.0 (deflation)`; set once the first header is read.
    var formatName: String? { get }
    /// The byte source's own error when it is why reading failed (a network failure, a changed file).
    var sourceFailure: (any Error)? { get }
    /// Reads every header, skipping member data, and returns the members in archive order.
    func members() throws(ArchiveError) -> [ArchiveMember]
    /// Streams the data of the member at `path` to `write`, at most `limit` bytes; false when no such member.
    func read(member path: String, limit: Int64, _ write: (UnsafeRawBufferPointer) -> Void) throws(ArchiveError) -> Bool
}
