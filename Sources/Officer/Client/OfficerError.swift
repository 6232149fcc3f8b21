import FileModel
import HTTP
import Transfer

/// An Officer API call that failed, with the request it belongs to and the server's own message.
package enum OfficerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No token, or the server no longer accepts it (expired, revoked, signed by another server).
    case notSignedIn(server: String, reason: String)
    /// Wrong email or password.
    case invalidCredentials(email: String)
    /// The path does not exist; `code` is the server's (`not_found`, `parent_not_found`).
    case notFound(request: String, message: String, code: String? = nil)
    /// The target exists, is not empty, or is of the wrong kind; `code` is the server's (`exists`, `not_empty`, …).
    case conflict(request: String, message: String, code: String? = nil)
    /// The server refused the path or the action (outside the root, permission).
    case forbidden(request: String, message: String)
    /// The request was malformed in the server's eyes; `code` is the server's (`not_a_directory`, …).
    case badRequest(request: String, message: String, code: String? = nil)
    /// The server failed (5xx) or answered with an unexpected status.
    case server(request: String, status: Int, message: String)
    /// The URL answered, but not as an Officer server.
    case notOfficerServer(url: String, detail: String)
    /// The URL is not an Officer server, but `server` (a shorter URL on the same origin) is.
    case serverElsewhere(url: String, server: String)
    /// The answer could not be decoded as the contract says.
    case malformedResponse(request: String, detail: String)
    /// The transfer itself failed; `subject` is what the request was about, in the user's terms (`officer:/x`),
    /// when the request names one.
    case transport(HTTPError, subject: String? = nil)
    /// A path given by the caller was malformed.
    case invalidPath(RemotePathError)
    /// The server does not offer what the call needs (a proposal of the contract it lacks): `feature` says what,
    /// in the user's terms.
    case notOffered(request: String, feature: String)

    /// A one-line message.
    package var description: String {
        switch self {
        case .notSignedIn(let server, let reason):
            "\(server): \(reason)"
        case .invalidCredentials(let email): "wrong email or password for \(email)"
        case .notFound(_, let message, _), .conflict(_, let message, _), .forbidden(_, let message),
            .badRequest(_, let message, _):
            message
        case .server(let request, let status, let message): "\(request): server error \(status): \(message)"
        case .notOfficerServer(let url, let detail): "\(url) is not an Officer server: \(detail)"
        case .serverElsewhere(let url, let server): "no Officer server at \(url); the Officer server is at \(server)"
        case .malformedResponse(let request, let detail): "\(request): unexpected answer: \(detail)"
        case .transport(let error, _): error.description
        case .invalidPath(let error): error.description
        case .notOffered(_, let feature): "the server does not offer \(feature)"
        }
    }
}
