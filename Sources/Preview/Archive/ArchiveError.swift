/// A libarchive failure, naming the archive and carrying libarchive's own message.
public enum ArchiveError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `archive_read_new` failed.
    case allocationFailed
    /// The file could not be opened or is not an archive libarchive knows.
    case openFailed(file: String, message: String)
    /// Reading a header or skipping data failed after `entries` entries.
    case readFailed(file: String, entries: Int, message: String)

    /// A one-line message.
    public var description: String {
        switch self {
        case .allocationFailed: "libarchive: could not allocate a reader"
        case .openFailed(let file, let message): "\(file): cannot open archive: \(message)"
        case .readFailed(let file, let entries, let message): "\(file): archive damaged after entry \(entries): \(message)"
        }
    }
}
