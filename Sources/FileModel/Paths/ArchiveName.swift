/// The folder name an archive extracts into: its name without the archive suffixes (`photos.tar.gz` →
/// `photos`), as the server names a default destination.
package enum ArchiveName {
    /// Suffixes removed, longest first.
    package static let suffixes = [
        ".tar.gz", ".tar.bz2", ".tar.xz", ".tar.zst", ".tgz", ".tbz2", ".txz", ".zip", ".tar",
    ]

    /// `photos.zip` → `photos`; a name that is only a suffix, or has none, gets `.contents` added.
    package static func folderName(for name: String) -> String {
        let lower = name.lowercased()
        for suffix in suffixes where lower.hasSuffix(suffix) && name.count > suffix.count {
            return String(name.dropLast(suffix.count))
        }
        return name + ".contents"
    }
}
