/// What a remote can do, declared by each kind (rclone's `Features`): commands and operations ask these instead
/// of asking which kind of remote a location is on, and say in one line what a remote cannot do.
public struct RemoteFeatures: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: Int

    /// Creates a set from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Files can be written, made and removed (not a plain URL).
    public static let writable = RemoteFeatures(rawValue: 1 << 0)
    /// An interrupted upload continues where it stopped (tus on Officer, multipart parts on S3).
    public static let resumableUploads = RemoteFeatures(rawValue: 1 << 1)
    /// Copies stay on the remote (the bytes never come here).
    public static let serverSideCopy = RemoteFeatures(rawValue: 1 << 2)
    /// Moves and renames stay on the remote (on S3: a copy, confirmed, then the source removed).
    public static let serverSideMove = RemoteFeatures(rawValue: 1 << 3)
    /// A file's modification time can be set to the one sent.
    public static let settableTimes = RemoteFeatures(rawValue: 1 << 4)
    /// The remote gives a file's SHA-256 without reading it back.
    public static let sha256 = RemoteFeatures(rawValue: 1 << 5)
    /// A whole tree lists in pages by one call (else level by level).
    public static let recursiveListing = RemoteFeatures(rawValue: 1 << 6)
    /// Parts of a file can be read (facts and archive listings without a download).
    public static let ranges = RemoteFeatures(rawValue: 1 << 7)
    /// Long server work runs as jobs that outlive the client.
    public static let jobs = RemoteFeatures(rawValue: 1 << 8)
    /// The remote makes thumbnails itself.
    public static let thumbnails = RemoteFeatures(rawValue: 1 << 9)
    /// Several files come as one zip made by the remote.
    public static let zipOfMany = RemoteFeatures(rawValue: 1 << 10)
    /// Names can be searched for on the remote.
    public static let search = RemoteFeatures(rawValue: 1 << 11)
    /// OCR, speech, transcription, extraction and fetching run on the remote.
    public static let serverWork = RemoteFeatures(rawValue: 1 << 12)
    /// Changes can be queued while the remote cannot be reached and replayed later.
    public static let queuedWrites = RemoteFeatures(rawValue: 1 << 13)
    /// What is read is kept in the local cache, and offline answers come from it.
    public static let cached = RemoteFeatures(rawValue: 1 << 14)
}
