import FileModel
import HTTP

/// Fetches a URL to a local file, resumably and verified.
package protocol Downloading: Sendable {
    /// Downloads `url` to `destination`; `onEvent` hears the plan, progress, retries and restarts.
    func download(
        from url: String, credential: BearerCredential?, to destination: String, options: DownloadOptions,
        onEvent: (@Sendable (TransferEvent) -> Void)?
    ) async throws(DownloadError) -> DownloadResult
}
