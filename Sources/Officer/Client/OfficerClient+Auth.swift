import FileModel
import Foundation
import HTTP
import Transfer

extension OfficerClient {
    /// Checks that the URL is an Officer server (the public plugins endpoint) and returns what it says of itself.
    package func serverInfo() async throws(OfficerError) -> PluginsResponse {
        let response: PluginsResponse
        do {
            response = try await call("GET", "/api/server-settings/plugins", authenticated: false)
        } catch .malformedResponse(_, let detail) {
            throw .notOfficerServer(
                url: server, detail: "the plugins endpoint answered something else (\(detail.prefix(80)))")
        } catch .notFound {
            // A URL with a path (`…/api`, `…/files`) is often the server's with a page's path after it.
            if let parent = Self.parent(of: server),
                (try? await OfficerClient(server: parent, http: http).serverInfo()) != nil
            {
                throw .serverElsewhere(url: server, server: parent)
            }
            throw .notOfficerServer(url: server, detail: "nothing there answers as one")
        }
        if let name = response.server?.name, name != "officer" {
            throw .notOfficerServer(url: server, detail: "it calls itself '\(name)'")
        }
        offers.learn(features: response.features)
        return response
    }

    /// Why a call without a token cannot go, told as `login` tells it (one rule for both): a URL that is no Officer
    /// server — one that does not speak https, a page's path after the server's, a plain web server — is said to
    /// be that (``serverInfo()``'s error), and "not logged in" only of a real Officer server.
    func notSignedIn() async -> OfficerError {
        if !http.configuration.offline {
            do { _ = try await serverInfo() } catch { return error }
        }
        return .notSignedIn(server: server, reason: "not logged in")
    }

    /// Signs in with email and password; the returned token is what later calls need.
    /// A token that could not go into a header as it is (a line break would inject one) is refused here, so it is
    /// never stored.
    package func signIn(email: String, password: String) async throws(OfficerError) -> SignInResponse {
        let response: SignInResponse = try await call(
            "POST", "/api/auth/signin", body: SignInRequest(email: email, password: password), authenticated: false,
            subject: email)
        do {
            try BearerCredential.validate(response.token)
        } catch {
            throw .malformedResponse(
                request: "POST /api/auth/signin", detail: "the token it sent is unusable: \(error)")
        }
        return response
    }

    /// The user the token belongs to; fails with ``OfficerError/notSignedIn(server:reason:)`` when it is no longer valid.
    package func me() async throws(OfficerError) -> UserInfo {
        try await call("GET", "/api/auth/me", as: MeResponse.self).user
    }

    /// Revokes the token on the server.
    package func signOut() async throws(OfficerError) {
        _ = try await raw("POST", "/api/auth/signout", body: Empty())
    }

    /// The URL one path component up (`http://h:1/api` → `http://h:1`), nil at the origin.
    static func parent(of server: String) -> String? {
        guard var components = URLComponents(string: server), !components.path.isEmpty, components.path != "/" else {
            return nil
        }
        var parts = components.path.split(separator: "/")
        parts.removeLast()
        components.path = parts.isEmpty ? "" : "/" + parts.joined(separator: "/")
        components.query = nil
        return components.string
    }
}
