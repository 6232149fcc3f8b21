import FileModel
import HTTP

/// Sends a local file to a server, resumably where the server allows it.
package protocol Uploading: Sendable {
    /// Uploads `path` to `target`; `onEvent` hears the plan, progress, retries and restarts.
    func upload(
        file path: String, to target: UploadTarget, options: UploadOptions,
        onEvent: (@Sendable (TransferEvent) -> Void)?
    ) async throws(UploadError) -> UploadResult
}
