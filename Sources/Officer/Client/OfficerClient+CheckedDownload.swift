import FileModel
import Foundation
import HTTP
import Transfer

extension OfficerClient {
    /// Downloads an Officer file as every download of one goes (`get`, a sync's pull): where the server offers
    /// checksums, the bytes must hash to its SHA-256 before they reach their name, and bytes damaged on the way
    /// are fetched once more from the start before the download is refused; when the file changes on the server
    /// while it comes, the new version's time and checksum replace the old one's.
    /// A checksum the caller gave (`--checksum`) is kept as it is: it says what the file must be.
    func checkedDownload(
        _ path: RemotePath, with downloader: SegmentedDownloader, to destination: String,
        options given: DownloadOptions,
        onEvent: (@Sendable (TransferEvent) -> Void)? = nil
    ) async throws -> DownloadResult {
        var options = given
        let checksumIsTheServers = options.checksum == nil
        let timeIsTheListings = options.modificationTime != nil
        // The server hashes the whole file before it answers: asked while the bytes come, awaited before they take
        // their name.
        let asked: Task<Checksum?, any Error>? =
            checksumIsTheServers ? Task { [self] in try await offeredChecksum(of: path)?.checksum } : nil
        defer { asked?.cancel() }
        // The question's own failure (a refused token, the file gone) is what the download reports, as it was when
        // it was asked first: the downloader would tell it as a local failure.
        let askFailure = FailureBox()
        if let asked {
            options.pendingChecksum = {
                do {
                    return try await withTaskCancellationHandler {
                        try await asked.value
                    } onCancel: {
                        asked.cancel()
                    }
                } catch {
                    askFailure.keep(error)
                    throw error
                }
            }
        }
        options.refreshOnChange = { [self] stale in
            var fresh = stale
            let version = try? await offeredChecksum(of: path)
            if checksumIsTheServers {
                fresh.checksum = version?.checksum
                fresh.pendingChecksum = nil
            }
            if timeIsTheListings {
                // Without checksums the listing gives the new time; if even that fails, Last-Modified's seconds.
                if let mtime = version?.mtime {
                    fresh.modificationTime = mtime
                } else {
                    fresh.modificationTime = try? await stat(path).mtime
                }
            }
            return fresh
        }
        let url = rawURL(for: path)
        let first: Result<DownloadResult, DownloadError>
        do {
            first = .success(
                try await downloader.download(
                    from: url, credential: credential, to: destination, options: options, onEvent: onEvent))
        } catch {
            if let failure = askFailure.error { throw failure }
            first = .failure(error)
        }
        guard case .failure(.checksumMismatch) = first, checksumIsTheServers else { return try first.get() }
        // The server's own checksum disagrees with what arrived (the temp file is gone): once more from the
        // first byte, with the version the server holds now; a second mismatch is the answer.
        onEvent?(.restarted(reason: "the bytes that arrived do not match the server's checksum"))
        options = await options.refreshOnChange?(options) ?? options
        options.pendingChecksum = nil
        // The HEAD asked beside the stat may be of a version the first download already left behind.
        options.headAnswer = nil
        return try await downloader.download(
            from: url, credential: credential, to: destination, options: options, onEvent: onEvent)
    }

    /// Checks bytes already written out (a `cat`, whose output cannot be read back) through ``ContentVerification``
    /// against the server's checksum asked while they streamed (`asked`): the checksum they matched, nil where the
    /// server offers none. A mismatch asks once more: a file edited while it streamed has a new checksum, and bytes
    /// that match it are that version whole; otherwise the bytes were damaged on the way
    /// (``DownloadError/damagedStream(url:output:expected:actual:)``).
    func checkStream(
        _ path: RemotePath, url: String, digest: RunningDigest,
        asked: Task<(checksum: Checksum, mtime: Double)?, any Error>, outputName: String
    ) async throws -> Checksum? {
        let first = try await asked.value?.checksum
        let actual = digest.finalized(for: first)
        guard case .failure(let mismatch) = ContentVerification.check(actual: actual, against: first) else {
            return first
        }
        if let now = try? await offeredChecksum(of: path)?.checksum, now != first {
            guard case .success = ContentVerification.check(actual: actual, against: now) else {
                throw DownloadError.unstable(url: URLRedaction.redacted(url))
            }
            return now
        }
        throw DownloadError.damagedStream(
            url: URLRedaction.redacted(url), output: outputName, expected: mismatch.expected.description,
            actual: mismatch.actual)
    }

    /// The server's SHA-256 of `path` and the time it was taken at, where the server offers checksums; nil where
    /// it does not (a seed-only server: the download is then checked by its length alone).
    func offeredChecksum(of path: RemotePath) async throws(OfficerError) -> (checksum: Checksum, mtime: Double)? {
        do {
            let answer = try await sha256(path)
            return Checksum(parsing: "sha256:" + answer.sha256).map { ($0, answer.mtime) }
        } catch {
            if case .notOffered = error { return nil }
            throw error
        }
    }
}

/// The first error kept from another task (the checksum question's, for the download that awaited it).
private final class FailureBox: Sendable {
    private let kept = LockedValue<(any Error)?>(nil)

    var error: (any Error)? { kept.current }

    func keep(_ error: any Error) { kept.withLock { if $0 == nil { $0 = error } } }
}
