import Foundation

/// The scheme, host and port of a URL: what a token is bound to and what a redirect may or may not leave.
///
/// Two URLs share an origin only when all three match (`http://a` and `https://a` do not); a missing port is the
/// scheme's default, so `https://a` and `https://a:443` do.
package struct URLOrigin: Hashable, Sendable, CustomStringConvertible {
    /// `http` or `https`, lowercased.
    package let scheme: String
    /// The host, lowercased, without brackets for IPv6.
    package let host: String
    /// The port, the scheme's default when the URL names none.
    package let port: Int

    /// The origin of an absolute http(s) URL; nil for anything else (no host, another scheme, unparsable).
    package init?(url: String) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
        else { return nil }
        self.scheme = scheme
        self.host = host.lowercased()
        port = components.port ?? (scheme == "https" ? 443 : 80)
    }

    /// `scheme://host:port`.
    package var description: String {
        "\(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }
}
