import Foundation
import HTTP
import Transfer

extension OfficerClient {
    /// Who this client acts as, for keys that must not mix accounts (the cache): the server's normalized URL
    /// and the token's subject, read from the JWT payload without verifying it (the server does that).
    package var accountIdentity: String {
        var base = server.lowercased()
        while base.hasSuffix("/") { base.removeLast() }
        return base + "#" + (token.flatMap(Self.subject(ofJWT:)) ?? "anonymous")
    }

    /// The `sub` claim of a JWT, or nil when the token is not one.
    static func subject(ofJWT token: String) -> String? {
        let parts = token.split(separator: ".")
        guard parts.count == 3 else { return nil }
        var payload = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        payload += String(repeating: "=", count: (4 - payload.count % 4) % 4)
        guard let data = Data(base64Encoded: payload),
            let claims = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        return claims["sub"] as? String
    }
}
