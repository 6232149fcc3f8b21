/// A file-type detection failure, carrying the detector's own message.
public enum MagicError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No ``FileTypeDetecting`` plug-in is given or installed.
    case notAvailable
    /// `magic_open` could not allocate a cookie.
    case openFailed
    /// The compiled magic database could not be loaded.
    case databaseLoadFailed(String)
    /// Detection failed for the named file (or `<buffer>`).
    case detectionFailed(file: String, message: String)

    /// A one-line message.
    public var description: String {
        switch self {
        case .notAvailable: "telling file types from their bytes is not available on this platform"
        case .openFailed: "libmagic: could not open a magic cookie"
        case .databaseLoadFailed(let message): "libmagic: could not load the magic database: \(message)"
        case .detectionFailed(let file, let message): "\(file): libmagic: \(message)"
        }
    }
}
