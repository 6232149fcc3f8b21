import Foundation
import HTTP

extension SegmentedDownloader {
    /// Places a local copy of a remote file (a cache entry the server confirmed current, open as `source`) at
    /// `destination` with a download's guarantees: a hidden temp file, the checksum checked, then a link
    /// (or a rename with `force`), so nothing partial ever carries the final name.
    package func install(
        from source: Int32, expectedLength: Int64, to destination: String, options: DownloadOptions = DownloadOptions()
    ) throws(DownloadError) -> DownloadResult {
        let partial = try PartialFile.claim(for: destination, force: options.force)
        let destination = partial.destination
        do throws(DownloadError) {
            try partial.fill(from: source)
            guard partial.size == expectedLength else {
                throw .lengthMismatch(path: destination, expected: expectedLength, actual: partial.size)
            }
            let (verdict, digest): (Result<ContentCheck, ContentVerification.Mismatch>, String?)
            do {
                (verdict, digest) = try ContentVerification.check(file: partial.path, against: options.checksum)
            } catch {
                throw .localFile(path: partial.path, message: "\(error)")
            }
            if case .failure(let mismatch) = verdict {
                throw .checksumMismatch(
                    path: destination, expected: mismatch.expected.description, actual: mismatch.actual)
            }
            try partial.commit(
                force: options.force, modificationTime: options.settledModificationTime(lastModified: nil))
            return DownloadResult(
                path: destination, bytes: expectedLength, resumedBytes: 0, fetchedBytes: 0, sha256: digest,
                fromCache: true)
        } catch {
            partial.discard()
            throw error
        }
    }
}
