import FileModel
import Foundation
import HTTP
import Transfer

/// A client of one Officer server (see `docs/officer-api.md`): JSON calls with a bearer token,
/// the server's error bodies turned into ``OfficerError``.
public struct OfficerClient: Sendable {
    /// Base URL, e.g. `http://127.0.0.1:5000` (no trailing slash).
    public let server: String
    /// The JWT sent with every protected call.
    public var token: String?
    /// The transport.
    public var http: HTTPClient
    /// What the server offers beyond the seed's endpoints, as learnt so far; shared by the copies of a client and
    /// by every client of one front door, so each proposal is probed at most once.
    public var offers: ServerOffers

    /// Creates a client; a trailing `/` on `server` is dropped.
    public init(server: String, token: String? = nil, http: HTTPClient = HTTPClient(), offers: ServerOffers = ServerOffers()) {
        var base = server
        while base.hasSuffix("/") { base.removeLast() }
        self.server = base
        self.token = token
        self.http = http
        self.offers = offers
    }

    /// True when the server URL is plain http to a host other than loopback: a token sent there can be read on the way.
    public var isInsecureRemote: Bool {
        guard server.lowercased().hasPrefix("http://"), let host = URLComponents(string: server)?.host else { return false }
        return !(host == "localhost" || host.hasPrefix("127.") || host == "::1" || host == "[::1]")
    }

    /// The token bound to this server's origin, for requests made outside ``raw`` (downloads, uploads); nil when
    /// there is no token or it is not one (``raw`` reports that case as an error).
    public var credential: BearerCredential? {
        token.flatMap { try? BearerCredential(token: $0, issuedBy: server) }
    }

    /// The absolute URL of an API path with query items.
    public func url(_ path: String, query: [(String, String)] = []) -> String {
        query.isEmpty ? server + path : server + path + "?" + URLQuery.encode(query)
    }

    // MARK: Plumbing

    /// Sends a JSON call and decodes its answer, mapping error statuses to ``OfficerError``.
    func call<Response: Decodable>(
        _ method: String, _ path: String, query: [(String, String)] = [], body: (some Encodable)? = Optional<Empty>.none,
        authenticated: Bool = true, subject: String? = nil, repeatable: Bool? = nil, as type: Response.Type = Response.self
    ) async throws(OfficerError) -> Response {
        let response = try await raw(
            method, path, query: query, body: body, authenticated: authenticated, subject: subject, repeatable: repeatable)
        do {
            return try JSONDecoder().decode(Response.self, from: response.body)
        } catch {
            throw .malformedResponse(request: "\(method) \(path)", detail: String(describing: error))
        }
    }

    /// Sends a call and returns the successful response undecoded.
    func raw(
        _ method: String, _ path: String, query: [(String, String)] = [], body: (some Encodable)? = Optional<Empty>.none,
        authenticated: Bool = true, subject: String? = nil, repeatable: Bool? = nil
    ) async throws(OfficerError) -> HTTPResponse {
        var request = HTTPRequest(method: method, url: url(path, query: query), isIdempotent: repeatable)
        if let body {
            do {
                request.body = .data(try JSONEncoder().encode(body), contentType: "application/json")
            } catch {
                throw .malformedResponse(request: "\(method) \(path)", detail: "cannot encode request: \(error)")
            }
        }
        request.headers.add("Accept", "application/json")
        if authenticated {
            guard let token else { throw .notSignedIn(server: server, reason: "not logged in") }
            do {
                request.credential = try BearerCredential(token: token, issuedBy: server)
            } catch {
                throw .notSignedIn(server: server, reason: "the token is unusable: \(error)")
            }
        }
        return try await send(request, subject: subject ?? query.first { $0.0 == "path" }?.1)
    }

    /// Sends a prepared request (JSON or not) and maps error statuses.
    public func send(_ request: HTTPRequest, subject: String? = nil) async throws(OfficerError) -> HTTPResponse {
        let response: HTTPResponse
        do {
            response = try await http.send(request)
        } catch let error as HTTPError {
            throw .transport(error)
        } catch {
            throw .transport(.cancelled(request: request.method + " " + request.url))
        }
        guard response.isSuccess || response.status == 304 else {
            throw mapError(response, request: request, subject: subject)
        }
        return response
    }

    /// Why the token was refused, and why signing in again failed when it was tried (the token store keeps a
    /// way): without that, "log in again" would mislead.
    func refusal(_ reason: String) -> String {
        reason + (http.configuration.credentialRenewal?.problem.map { " (signing in again failed: \($0))" } ?? "")
    }

    func mapError(_ response: HTTPResponse, request: HTTPRequest, subject: String?) -> OfficerError {
        let label = request.method + " " + (URLComponents(string: request.url)?.path ?? request.url)
        let detail = try? JSONDecoder().decode(APIErrorBody.self, from: response.body).error
        // Without the contract's error body (an HTML page, a proxy's text) the message still names what was asked.
        let message = detail?.message ?? "\(subject ?? label): HTTP \(response.status) from the server, without an explanation"
        switch (response.status, detail?.code) {
        case (401, "invalid_credentials"):
            return .invalidCredentials(email: subject ?? "")
        case (401, let code):
            return .notSignedIn(server: server, reason: refusal(code == "token_expired" ? "your session has expired" : "the server no longer accepts the token"))
        case (404, _): return .notFound(request: label, message: message)
        // The server's own words may name its parameters ("set overwrite"); known codes get words of our own.
        case (409, "exists"): return .conflict(request: label, message: "\(subject ?? label): already exists", code: "exists")
        case (409, "not_empty"): return .conflict(request: label, message: "\(subject ?? label): folder not empty", code: "not_empty")
        case (409, let code): return .conflict(request: label, message: message, code: code)
        case (403, _): return .forbidden(request: label, message: message)
        case (400, let code), (413, let code), (415, let code), (422, let code):
            return .badRequest(request: label, message: message, code: code)
        default: return .server(request: label, status: response.status, message: message)
        }
    }
}

/// An empty JSON body placeholder for calls without one.
struct Empty: Codable, Sendable {}
