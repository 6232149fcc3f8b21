import Journal

/// An upload's journaled state, keyed by a key whose last line is its local file, which its record and its
/// fingerprint name too: the one place those three paths are mapped between their kept and their found forms.
package protocol LocalFileUploadState: JournaledState {
    /// Endpoint, destination and local file, a line each.
    var key: String { get set }
    /// The local file.
    var localPath: String { get set }
    /// The local file's version when the upload started.
    var fingerprint: FileFingerprint { get set }
}

extension LocalFileUploadState {
    /// The local file, in the key's last line, the record and the fingerprint, mapped.
    package func mappingPaths(_ transform: (String) -> String?) -> Self? {
        guard let key = TransferJournal.mappingLastLine(of: key, transform), let path = transform(localPath) else {
            return nil
        }
        var mapped = self
        mapped.key = key
        mapped.localPath = path
        mapped.fingerprint.path = path
        return mapped
    }
}
