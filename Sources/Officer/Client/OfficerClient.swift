import FileModel
import Foundation
import HTTP
import Transfer

/// A client of one Officer server (see `docs/officer-api.md`): JSON calls with a bearer token,
/// the server's error bodies turned into ``OfficerError``.
package struct OfficerClient: Sendable {
    /// Base URL, e.g. `http://127.0.0.1:5000` (no trailing slash).
    package let server: String
    /// The JWT sent with every protected call.
    package var token: String?
    /// The transport.
    package var http: HTTPClient
    /// The name of the Officer remote this server is (`work` for `work:/…`), nil for the default server: what
    /// messages call its paths.
    package var remoteName: String?
    /// What the server offers beyond the seed's endpoints, as learnt so far; shared by the copies of a client and
    /// by every client of one front door, so each proposal is probed at most once.
    package var offers: ServerOffers

    /// Creates a client; a trailing `/` on `server` is dropped.
    package init(
        server: String, token: String? = nil, http: HTTPClient, offers: ServerOffers = ServerOffers()
    ) {
        var base = server
        while base.hasSuffix("/") { base.removeLast() }
        self.server = base
        self.token = token
        self.http = http
        self.offers = offers
    }

    /// True when the server URL is plain http to a host other than loopback: a token sent there can be read on the way.
    package var isInsecureRemote: Bool {
        guard server.lowercased().hasPrefix("http://"), let host = URLComponents(string: server)?.host else {
            return false
        }
        return !(host == "localhost" || host.hasPrefix("127.") || host == "::1" || host == "[::1]")
    }

    /// The token bound to this server's origin, for requests made outside ``raw`` (downloads, uploads); nil when
    /// there is no token or it is not one (``raw`` reports that case as an error).
    package var credential: BearerCredential? {
        token.flatMap { try? BearerCredential(token: $0, issuedBy: server) }
    }

    /// The absolute URL of an API path with query items.
    package func url(_ path: String, query: [(String, String)] = []) -> String {
        query.isEmpty ? server + path : server + path + "?" + URLQuery.encode(query)
    }

    // MARK: Plumbing

    /// Sends a JSON call and decodes its answer, mapping error statuses to ``OfficerError``.
    func call<Response: Decodable>(
        _ method: String, _ path: String, query: [(String, String)] = [],
        body: (some Encodable)? = Optional<Empty>.none,
        authenticated: Bool = true, subject: String? = nil, repeatable: Bool? = nil,
        as type: Response.Type = Response.self
    ) async throws(OfficerError) -> Response {
        let response = try await raw(
            method, path, query: query, body: body, authenticated: authenticated, subject: subject,
            repeatable: repeatable)
        do {
            return try JSONDecoder().decode(Response.self, from: response.body)
        } catch {
            throw .malformedResponse(request: "\(method) \(url(path, query: query))", detail: Self.summary(of: error))
        }
    }

    /// Sends a call and returns the successful response undecoded.
    func raw(
        _ method: String, _ path: String, query: [(String, String)] = [],
        body: (some Encodable)? = Optional<Empty>.none,
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
            guard let token else { throw await notSignedIn() }
            do {
                request.credential = try BearerCredential(token: token, issuedBy: server)
            } catch {
                throw .notSignedIn(server: server, reason: "the token is unusable: \(error)")
            }
        }
        return try await send(request, subject: subject ?? location(query: query))
    }

    /// Sends a prepared request (JSON or not) and maps error statuses.
    package func send(_ request: HTTPRequest, subject: String? = nil) async throws(OfficerError) -> HTTPResponse {
        let response: HTTPResponse
        do {
            response = try await http.send(request)
        } catch let error as HTTPError {
            throw .transport(error, subject: subject)
        } catch {
            throw .transport(.cancelled(request: request.method + " " + request.url))
        }
        guard response.isSuccess || response.status == 304 else {
            throw mapError(response, request: request, subject: subject)
        }
        return response
    }

    /// The location a request's `path` and `root` query items name, as the user writes it (`officer:/x`,
    /// `work:/x` on a named remote).
    func location(query: [(String, String)]) -> String? {
        guard let path = query.first(where: { $0.0 == "path" })?.1 else { return nil }
        let root = query.first { $0.0 == "root" }?.1 ?? RemotePath.defaultRoot
        return (try? RemotePath(root: root, path: path, remote: remoteName))?.description ?? path
    }

    /// Why the token was refused, and why signing in again failed when it was tried (the token store keeps a
    /// way): without that, "log in again" would mislead.
    func refusal(_ reason: String) -> String {
        reason + (http.configuration.credentialRenewal?.problem.map { " (signing in again failed: \($0))" } ?? "")
    }

    /// `error` as this server's ``OfficerError/notSignedIn(server:reason:)`` when it is a refusal of the token,
    /// whichever request met it (a tus upload's or a download's 401 names no server and no way back); any other
    /// error as it is.
    func signInNeeded(after error: any Error) -> any Error {
        if case OfficerError.notSignedIn = error { return error }
        guard ErrorCategory.of(error) == .authentication else { return error }
        return OfficerError.notSignedIn(server: server, reason: refusal("the server no longer accepts the token"))
    }

    func mapError(_ response: HTTPResponse, request: HTTPRequest, subject: String?) -> OfficerError {
        let label = request.method + " " + URLRedaction.redacted(request.url)
        let detail = try? JSONDecoder().decode(APIErrorBody.self, from: response.body).error
        let named = subject ?? server
        // Without the contract's error body (an HTML page, a proxy's text) the message still names what was asked.
        let message =
            detail.map { serverWords($0.message, about: named) }
            ?? "\(named): the server answered \(response.status) without an explanation"
        switch (response.status, detail?.code) {
        case (401, "invalid_credentials"):
            return .invalidCredentials(email: subject ?? "")
        case (401, let code):
            return .notSignedIn(
                server: server,
                reason: refusal(
                    code == "token_expired" ? "your session has expired" : "the server no longer accepts the token"))
        case (404, "not_found") where subject != nil && request.url.contains("/api/file-browser/"):
            return .notFound(request: label, message: "\(named): no such file or folder", code: "not_found")
        case (404, let code): return .notFound(request: label, message: message, code: code)
        // The server's own words may name its parameters ("set overwrite"); known codes get words of our own.
        case (409, "exists"): return .conflict(request: label, message: "\(named): already exists", code: "exists")
        case (409, "not_empty"):
            return .conflict(request: label, message: "\(named): folder not empty", code: "not_empty")
        case (409, let code): return .conflict(request: label, message: message, code: code)
        case (403, _): return .forbidden(request: label, message: message)
        case (400, let code), (413, let code), (415, let code), (422, let code):
            return .badRequest(request: label, message: message, code: code)
        default: return .server(request: label, status: response.status, message: message)
        }
    }
}

extension OfficerClient {
    /// What was wrong with an answer that did not decode, in a few words (the decoder's own description is a
    /// page of Swift types).
    static func summary(of error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context): return "no \"\(path(context.codingPath + [key]))\" in it"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\"\(path(context.codingPath))\" is of the wrong kind"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not JSON" : "\"\(path(context.codingPath))\" is malformed"
        @unknown default: return "not the JSON expected"
        }
    }

    /// The server's message about `subject`: its own words, with the server's form of the path they start with
    /// (`/docs: …`) in the user's (`officer:/docs: …`, on the subject's root and remote).
    func serverWords(_ message: String, about subject: String) -> String {
        if message.hasPrefix(subject + ": ") { return message }
        guard message.hasPrefix("/"), let colon = message.range(of: ": ") else { return "\(subject): \(message)" }
        let serverPath = String(message[..<colon.lowerBound])
        let remotes: Set<String> = remoteName.map { [$0] } ?? []
        let root = (try? RemotePath(parsing: subject, remotes: remotes))?.root ?? RemotePath.defaultRoot
        let place = (try? RemotePath(root: root, path: serverPath, remote: remoteName))?.description ?? serverPath
        return place + ": " + message[colon.upperBound...]
    }
}

/// An empty JSON body placeholder for calls without one.
struct Empty: Codable, Sendable {}
