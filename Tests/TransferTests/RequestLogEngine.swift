import FileModel
import Foundation

@testable import HTTP

/// A real engine that writes down each request it sends (its method and its body's length) and the status it got:
/// what a test needs to say how many requests a transfer took and what each carried. It changes nothing it carries.
final class RequestLogEngine: WrappingEngine, Sendable {
    /// One request: its method, its body's bytes (0 without one, nil for a multipart form) and the answer's status.
    struct Entry: Equatable, Sendable {
        var method: String
        var bodyLength: Int64?
        var status: Int?
    }

    let engine: any HTTPEngine
    /// The requests sent, in order.
    let entries = LockedValue<[Entry]>([])
    /// Runs before a request is handed on, with the request (a test's edit of a file at a chosen request).
    let beforeSending: (@Sendable (HTTPRequest) -> Void)?

    init(_ engine: any HTTPEngine, beforeSending: (@Sendable (HTTPRequest) -> Void)? = nil) {
        self.engine = engine
        self.beforeSending = beforeSending
    }

    func perform(
        _ request: HTTPRequest, configuration: HTTPClientConfiguration,
        onProgress: (@Sendable (TransferProgress) -> Void)?
    ) async throws -> HTTPResponse {
        let index = entries.withLock { entries in
            entries.append(Entry(method: request.method, bodyLength: Self.length(of: request.body), status: nil))
            return entries.count - 1
        }
        beforeSending?(request)
        let response = try await engine.perform(request, configuration: configuration, onProgress: onProgress)
        entries.withLock { $0[index].status = response.status }
        return response
    }

    private static func length(of body: HTTPRequest.Body) -> Int64? {
        switch body {
        case .empty: 0
        case .data(let data, _): Int64(data.count)
        case .file(_, _, let length, _): length
        case .multipart: nil
        }
    }
}
