import HTTP

/// The libcurl engine: one multi handle on a thread of its own, so every request of the process shares one
/// connection pool. It paces `--bwlimit` byte by byte, honours a CA file and `--insecure`, and streams bodies from
/// files and pipes without copies.
package struct CurlHTTPEngine: HTTPEngine {
    /// The engine (it holds no state of its own: the shared multi handle does).
    package init() {}

    /// The libcurl version line, e.g. `libcurl/7.88.1 OpenSSL/3.0.15 …`.
    package var versionDescription: String { CurlCalls.version() }

    /// Sends one attempt through the shared multi handle.
    package func perform(
        _ request: HTTPRequest, configuration: HTTPClientConfiguration,
        onProgress: (@Sendable (TransferProgress) -> Void)?
    ) async throws -> HTTPResponse {
        let transfer = try CurlTransfer(request: request, configuration: configuration, onProgress: onProgress)
        return try await CurlEngine.shared.perform(transfer)
    }
}
