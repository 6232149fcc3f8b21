import Preview

/// libarchive behind Preview's ``ArchiveReading``: a Linux plug-in.
package struct LibArchive: ArchiveReading {
    /// Creates the plug-in.
    package init() {}

    package var libraryVersion: String { ArchiveCalls.version() }

    package func open(path: String) throws(ArchiveError) -> any ArchiveHandle { try LibArchiveHandle(path: path) }

    package func open(source: any ByteSource, name: String, seekable: Bool) throws -> any ArchiveHandle {
        try LibArchiveHandle(source: source, name: name, seekable: seekable)
    }
}
