/// An archive failure, naming the archive and carrying the archive library's own message.
public enum ArchiveError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No ``ArchiveReading`` plug-in is installed to read `file`.
    case notAvailable(file: String)
    /// `archive_read_new` failed.
    case allocationFailed
    /// The file could not be opened or is not an archive libarchive knows.
    case openFailed(file: String, message: String)
    /// The bytes are in no archive format this reads (random bytes, an empty file).
    case notAnArchive(file: String)
    /// Reading a header or skipping data failed after `entries` entries.
    case readFailed(file: String, entries: Int, message: String)
    /// The member asked for is a folder or link, not a file.
    case notAFile(file: String, entry: String)
    /// The member asked for is encrypted.
    case encrypted(file: String, entry: String)
    /// The member is larger than the cap on what is streamed.
    case tooLarge(file: String, entry: String, limit: Int64)

    /// A one-line message.
    public var description: String {
        switch self {
        case .notAvailable(let file): "\(file): reading archives is not available on this platform"
        case .allocationFailed: "libarchive: could not allocate a reader"
        case .openFailed(let file, let message):
            "\(file): cannot open archive" + (message.isEmpty ? "" : ": \(message)")
        case .notAnArchive(let file): "\(file): not an archive (its bytes are in no archive format this reads)"
        case .readFailed(let file, let entries, let message):
            "\(file): archive damaged or cut short after entry \(entries)" + (message.isEmpty ? "" : ": \(message)")
        case .notAFile(let file, let entry): "\(file): \(entry) is not a file"
        case .encrypted(let file, let entry): "\(file): \(entry) is encrypted"
        case .tooLarge(let file, let entry, let limit): "\(file): \(entry) is larger than the limit of \(limit) bytes"
        }
    }
}
