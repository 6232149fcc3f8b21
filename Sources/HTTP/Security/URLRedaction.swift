import Foundation

/// URLs as messages and logs may show them.
package enum URLRedaction {
    /// The URL without a password or query values that could carry secrets (`token`, `access_token`, `password`).
    package static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url) else { return url }
        if components.password != nil { components.password = "REDACTED" }
        components.queryItems = components.queryItems?.map { item in
            ["token", "access_token", "password"].contains(item.name.lowercased())
                ? URLQueryItem(name: item.name, value: "REDACTED") : item
        }
        return components.string ?? url
    }

    /// `text` with the password of every URL in it (`scheme://user:password@host`) replaced, for messages that
    /// quote a URL someone else wrote (a server's error about a fetch).
    package static func redactingCredentials(in text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let scheme = rest.range(of: "://") {
            result += rest[..<scheme.upperBound]
            rest = rest[scheme.upperBound...]
            let authority = rest.prefix { $0 != "/" && $0 != " " && $0 != "?" && $0 != "#" }
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                result += rest[..<colon] + ":REDACTED"
                rest = rest[at...]
            }
        }
        return result + rest
    }
}
