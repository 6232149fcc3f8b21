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
}
