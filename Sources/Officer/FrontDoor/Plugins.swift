import FileModel
import Preview
import Transfer

/// The plug-ins an app brings for one front door: what the platform does better or only it can (an Apple app's
/// CryptoKit digests, UTType's file types, ImageIO's image preparation). Each one given is used for that front door's work alone — another
/// front door in the same process keeps its own — and one not given stays the process's (the portable default,
/// or what `LinuxPlugins.install()` put there).
public struct Plugins: Sendable {
    /// The digests every byte is checked with (SHA-256; SHA-1 and MD5 where a protocol asks them).
    public var hashing: (any Hashing)?
    /// What tells a file's type from its first bytes (facts, uploads' MIME types).
    public var fileTypes: (any FileTypeDetecting)?
    /// What lists and reads archives (a zip read by ranges is listed without one).
    public var archives: (any ArchiveReading)?
    /// What decodes, resizes and re-encodes images (photo uploads, thumbnails, image facts).
    public var images: (any ImagePreparing)?

    /// None given: the process's plug-ins.
    public init() {}

    /// The plug-ins as the slots they stand in for (``FileModel/PluginScope``).
    package var scope: [ObjectIdentifier: any Sendable] {
        let given: [(ObjectIdentifier, any Sendable)?] = [
            hashing.map { SHA256Hasher.hashing.scoped($0) },
            fileTypes.map { FileTypeDetector.plugin.scoped($0) },
            archives.map { ArchiveReader.plugin.scoped($0) },
            images.map { ImagePreparer.plugin.scoped($0) },
        ]
        return Dictionary(given.compactMap { $0 }, uniquingKeysWith: { first, _ in first })
    }
}
