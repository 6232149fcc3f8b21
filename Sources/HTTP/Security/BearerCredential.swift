/// A bearer token together with the origin of the server that issued it: the only origin it is ever sent to.
///
/// The HTTP client refuses a request that would carry the token to another origin, whatever URL a server handed
/// us (a tus `Location`, a job's result link), and drops it on a redirect hop to another origin.
package struct BearerCredential: Sendable, Hashable {
    /// The token itself; checked by ``validate(_:)``.
    package let token: String
    /// Where it may go.
    package let origin: URLOrigin

    /// The longest token accepted. A JWT is a few hundred bytes; a token of megabytes is a server's fault, and
    /// a value that large would not fit a header line anyway.
    package static let maxLength = 16 << 10

    /// A credential for the server at `serverURL`; fails when the token is not a safe header value or the URL
    /// is not an http(s) URL.
    package init(token: String, issuedBy serverURL: String) throws(CredentialError) {
        try Self.validate(token)
        guard let origin = URLOrigin(url: serverURL) else { throw .invalidServer(serverURL) }
        self.token = token
        self.origin = origin
    }

    /// This credential if `url` is on its origin, else nil: for URLs that may or may not be the issuing server's
    /// (a journaled transfer resumed later), so that a request elsewhere simply goes without a token.
    package func scoped(to url: String) -> BearerCredential? {
        URLOrigin(url: url) == origin ? self : nil
    }

    /// Checks that `token` can go into an `Authorization` header as it is: one line of the characters RFC 6750
    /// allows in a bearer token (letters, digits, `-._~+/` and trailing `=`), at most ``maxLength`` bytes.
    /// Anything else (a line break that would inject a header, spaces, control characters) is refused.
    package static func validate(_ token: String) throws(CredentialError) {
        let bytes = token.utf8
        guard !bytes.isEmpty else { throw .empty }
        guard bytes.count <= maxLength else { throw .tooLong(bytes: bytes.count, limit: maxLength) }
        var seenPadding = false
        for byte in bytes {
            let isTokenCharacter =
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E || byte == 0x2B || byte == 0x2F
            if byte == 0x3D {
                seenPadding = true
            } else if !isTokenCharacter || seenPadding {
                throw .invalidCharacter
            }
        }
    }
}

/// Why a token or the server it belongs to was refused.
package enum CredentialError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The token is empty.
    case empty
    /// The token is longer than any real token.
    case tooLong(bytes: Int, limit: Int)
    /// The token holds a character a bearer token cannot have (a line break, a space, a control character).
    case invalidCharacter
    /// The server URL is not an absolute http(s) URL.
    case invalidServer(String)

    /// A one-line message.
    package var description: String {
        switch self {
        case .empty: "the token is empty"
        case .tooLong(let bytes, let limit): "the token is \(bytes) bytes long; a token is at most \(limit)"
        case .invalidCharacter:
            "the token holds characters a token cannot have (line breaks, spaces or control characters)"
        case .invalidServer(let url): "\(url): not an http(s) server URL"
        }
    }
}
