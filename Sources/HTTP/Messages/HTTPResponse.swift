import FileModel
import Foundation

/// A completed HTTP exchange.
package struct HTTPResponse: Sendable {
    /// Final status code (after redirects).
    package var status: Int
    /// Header fields of the final response.
    package var headers: HTTPHeaders
    /// The body when the sink was memory, or when a file sink got a non-2xx answer.
    package var body: Data
    /// Bytes written to a file sink.
    package var bytesWritten: Int64
    /// The URL that answered last.
    package var effectiveURL: String
    /// Attempts it took, retries included.
    package var attempts: Int

    /// True for 2xx.
    package var isSuccess: Bool { (200..<300).contains(status) }

    /// The server's one-line explanation of an error: the contract's error body, else a short plain-text
    /// body, else `HTTP <status>` (an HTML error page is no message).
    package var errorMessage: String {
        if let detail = apiError { return detail.message }
        let text = String(decoding: body.prefix(200), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty || text.contains("<") ? "HTTP \(status)" : text
    }

    /// The contract's machine-readable error code (`exists`, `digest_mismatch`), when the body is its error.
    package var errorCode: String? { apiError?.code }

    /// The body as the contract's error, when it is one.
    private var apiError: APIErrorBody.Detail? { (try? JSONDecoder().decode(APIErrorBody.self, from: body))?.error }
}
