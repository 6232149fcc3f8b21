import Foundation
import HTTP

/// Where an S3-compatible store answers and how its buckets are addressed.
package struct ObjectStoreEndpoint: Sendable, Equatable, Codable {
    /// `scheme://host[:port]` without a trailing slash.
    package let url: String
    /// The region requests are signed for.
    package let region: String
    /// Buckets in the path (`http://host/bucket/key`, what most self-hosted stores need) rather than in the host
    /// name (`http://bucket.host/key`).
    package let pathStyle: Bool

    /// Checks `url` (http or https, a host, no path, query or credentials) and keeps it without a trailing slash.
    package init(url: String, region: String = "us-east-1", pathStyle: Bool = true) throws(ObjectStoreError) {
        var text = url
        while text.hasSuffix("/") { text.removeLast() }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            ["http", "https"].contains(scheme), let host = components.host, !host.isEmpty
        else { throw .invalidAddress(url, reason: "the endpoint must be an http:// or https:// URL with a host") }
        guard components.path.isEmpty, components.query == nil, components.user == nil, components.password == nil
        else {
            throw .invalidAddress(
                url, reason: "the endpoint is scheme://host[:port] only, without a path or credentials")
        }
        guard !region.isEmpty, region.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw .invalidAddress(region, reason: "not a region name")
        }
        self.url = text
        self.region = region
        self.pathStyle = pathStyle
    }

    /// The URL of the store, a bucket or an object, with query parameters (a nil value is sent as a bare name,
    /// `?uploads`). Every byte of the key but unreserved characters and `/` is percent-encoded.
    package func url(bucket: String? = nil, key: String? = nil, query: [(String, String?)] = []) -> String {
        var base = url
        var path = ""
        if let bucket {
            if pathStyle {
                path = "/" + SignatureV4.encode(bucket)
            } else if let schemeEnd = base.range(of: "://") {
                base.insert(contentsOf: bucket + ".", at: schemeEnd.upperBound)
            }
        }
        if let key {
            path +=
                "/"
                + key.split(separator: "/", omittingEmptySubsequences: false).map { SignatureV4.encode(String($0)) }
                .joined(separator: "/")
        }
        if path.isEmpty { path = "/" }
        let queryText = query.map { name, value in
            value.map { "\(SignatureV4.encode(name))=\(SignatureV4.encode($0))" } ?? SignatureV4.encode(name)
        }
        .joined(separator: "&")
        return base + path + (queryText.isEmpty ? "" : "?" + queryText)
    }

    /// The origins a signature may go to: the endpoint's, and in virtual-host style each bucket's.
    func origin(bucket: String?) -> URLOrigin? {
        URLOrigin(url: url(bucket: pathStyle ? nil : bucket))
    }
}
