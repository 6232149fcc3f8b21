import Foundation

extension SegmentedDownloader {
    /// Places a local copy of a remote file (a cache entry the server confirmed current, open as `source`) at
    /// `destination` with a download's guarantees: a hidden temp file, the checksum checked, then a link
    /// (or a rename with `force`), so nothing partial ever carries the final name.
    public func install(
        from source: Int32, expectedLength: Int64, to destination: String, options: DownloadOptions = DownloadOptions()
    ) throws(DownloadError) -> DownloadResult {
        let destination = URL(fileURLWithPath: destination).standardizedFileURL.path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: destination, isDirectory: &isDirectory) {
            if isDirectory.boolValue { throw .destinationIsDirectory(path: destination) }
            if !options.force { throw .destinationExists(path: destination) }
        }
        let partial = try PartialFile(destination: destination)
        do throws(DownloadError) {
            try partial.fill(from: source)
            guard partial.size == expectedLength else {
                throw .lengthMismatch(path: destination, expected: expectedLength, actual: partial.size)
            }
            var digest: String?
            if let expected = options.checksum {
                let actual: String
                do { actual = try SHA256Hasher.hash(file: partial.path) } catch {
                    throw .localFile(path: partial.path, message: "\(error)")
                }
                guard actual == expected.sha256 else {
                    throw .checksumMismatch(path: destination, expected: expected.sha256, actual: actual)
                }
                digest = actual
            }
            try partial.commit(force: options.force, modificationTime: nil)
            return DownloadResult(
                path: destination, bytes: expectedLength, resumedBytes: 0, fetchedBytes: 0, sha256: digest, fromCache: true)
        } catch {
            partial.discard()
            throw error
        }
    }
}
