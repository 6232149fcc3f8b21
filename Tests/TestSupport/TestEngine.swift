import CurlHTTP
import Foundation
import HTTP

/// The HTTP engines the engine suite runs over, and the one every other test uses (libcurl, the CLI's).
public enum TestEngine: String, CaseIterable, Sendable, CustomStringConvertible {
    /// The libcurl engine (Linux plug-in).
    case curl
    /// The URLSession engine (portable core).
    case urlSession

    /// The engines that keep a bandwidth limit here (FoundationNetworking's URLSession refuses one).
    package static var pacing: [TestEngine] {
        #if canImport(FoundationNetworking)
            [.curl]
        #else
            allCases
        #endif
    }

    /// The engine itself.
    package var engine: any HTTPEngine {
        switch self {
        case .curl: CurlHTTPEngine()
        case .urlSession: URLSessionEngine.shared
        }
    }

    /// A client with `configuration` (the defaults if none) on this engine.
    package func client(_ configuration: HTTPClientConfiguration = HTTPClientConfiguration()) -> HTTPClient {
        var configuration = configuration
        configuration.engine = engine
        return HTTPClient(configuration: configuration)
    }

    /// The engine's name in a test case's arguments.
    public var description: String { rawValue }
}

extension HTTPClient {
    /// A client with the default settings on the libcurl engine, as the CLI makes them.
    package static var curl: HTTPClient { TestEngine.curl.client() }
}
