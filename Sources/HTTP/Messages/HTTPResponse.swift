import FileModel
import Foundation

/// A completed HTTP exchange.
public struct HTTPResponse: Sendable {
    /// Final status code (after redirects).
    public var status: Int
    /// Header fields of the final response.
    public var headers: HTTPHeaders
    /// The body when the sink was memory, or when a file sink got a non-2xx answer.
    public var body: Data
    /// Bytes written to a file sink.
    public var bytesWritten: Int64
    /// The URL that answered last.
    public var effectiveURL: String
    /// Attempts it took, retries included.
    public var attempts: Int

    /// True for 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }

    /// The server's one-line explanation of an error: the contract's error body, else a short plain-text
    /// body, else `HTTP <status>` (an HTML error page is no message).
    public var errorMessage: String {
        if let detail = try? JSONDecoder().decode(APIErrorBody.self, from: body) { return detail.error.message }
        let text = String(decoding: body.prefix(200), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty || text.contains("<") ? "HTTP \(status)" : text
    }
}
