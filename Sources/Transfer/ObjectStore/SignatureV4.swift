import FileModel
import Foundation
import HTTP

/// The keys of an S3-compatible store and the region its requests are signed for.
package struct ObjectStoreCredentials: Sendable, Equatable {
    /// The access key id (`AKIA…`); it travels in every request.
    package var accessKey: String
    /// The secret key; it never travels, it signs.
    package var secretKey: String
    /// The region in the signature's scope (`us-east-1` for most S3-compatible stores).
    package var region: String

    /// Creates credentials.
    package init(accessKey: String, secretKey: String, region: String) {
        self.accessKey = accessKey
        self.secretKey = secretKey
        self.region = region
    }
}

/// AWS Signature Version 4 for S3 requests (header form): the canonical request, the string to sign, the
/// signing key derived from the secret, the date and the scope, and the `Authorization` header.
package struct SignatureV4: Sendable {
    /// The SHA-256 of an empty body, in hex: the payload hash of a request without one.
    package static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    /// Sent instead of a payload hash when the body is not hashed first (it then travels over TLS or a trusted link).
    package static let unsignedPayload = "UNSIGNED-PAYLOAD"

    /// The keys and region.
    package var credentials: ObjectStoreCredentials
    /// The service in the scope.
    package var service = "s3"

    /// A signer for `credentials`.
    package init(credentials: ObjectStoreCredentials) { self.credentials = credentials }

    /// The headers to add to a request (`x-amz-date`, `x-amz-content-sha256`, `Authorization`), signing `method`,
    /// `url`, every header given (names are case-insensitive; `host` comes from the URL) and `payloadHash`, at `date`.
    package func sign(
        method: String, url: String, headers: [(String, String)] = [],
        payloadHash: String = SignatureV4.emptyPayloadHash,
        date: Date = Date()
    ) -> [(String, String)] {
        let components = URLComponents(string: url)
        let amzDate = Self.timestamp(date)
        let day = String(amzDate.prefix(8))
        var signed: [String: String] = [:]
        for (name, value) in headers { signed[name.lowercased()] = Self.trimmed(value) }
        if let host = components?.host {
            let port = components?.port.map { ":\($0)" } ?? ""
            signed["host"] = host + port
        }
        signed["x-amz-date"] = amzDate
        signed["x-amz-content-sha256"] = payloadHash
        let names = signed.keys.sorted()
        let canonical = [
            method.uppercased(),
            Self.canonicalPath(components?.percentEncodedPath ?? "/"),
            Self.canonicalQuery(components?.percentEncodedQuery),
            names.map { "\($0):\(signed[$0]!)\n" }.joined(),
            names.joined(separator: ";"),
            payloadHash,
        ].joined(separator: "\n")
        let scope = "\(day)/\(credentials.region)/\(service)/aws4_request"
        let toSign = ["AWS4-HMAC-SHA256", amzDate, scope, Self.hex(SHA256Hasher.digest(Array(canonical.utf8)))].joined(
            separator: "\n")
        var key = HMACSHA256.mac(key: Array("AWS4\(credentials.secretKey)".utf8), day)
        for part in [credentials.region, service, "aws4_request"] { key = HMACSHA256.mac(key: key, part) }
        let signature = Self.hex(HMACSHA256.mac(key: key, toSign))
        let authorization =
            "AWS4-HMAC-SHA256 Credential=\(credentials.accessKey)/\(scope),SignedHeaders=\(names.joined(separator: ";")),Signature=\(signature)"
        return [("x-amz-date", amzDate), ("x-amz-content-sha256", payloadHash), ("Authorization", authorization)]
    }

    /// `20130524T000000Z`.
    static func timestamp(_ date: Date) -> String { HTTPDate.basicStamp(date.timeIntervalSince1970) }

    /// Header values are signed with surrounding spaces removed and inner runs of spaces made one.
    static func trimmed(_ value: String) -> String {
        value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            .trimmingCharacters(in: .whitespaces)
    }

    /// S3 signs the path as sent, each segment percent-encoded once (RFC 3986 unreserved characters kept).
    static func canonicalPath(_ encodedPath: String) -> String {
        guard !encodedPath.isEmpty else { return "/" }
        return encodedPath.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            encode(String(segment).removingPercentEncoding ?? String(segment))
        }.joined(separator: "/")
    }

    /// Parameters sorted by name then value, each encoded; a parameter without a value signs as `name=`.
    static func canonicalQuery(_ encodedQuery: String?) -> String {
        guard let encodedQuery, !encodedQuery.isEmpty else { return "" }
        let pairs = encodedQuery.split(separator: "&").map { item -> (String, String) in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            let value = parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? String(parts[1])) : ""
            return (encode(name), encode(value))
        }
        return pairs.sorted { $0.0 == $1.0 ? $0.1 < $1.1 : $0.0 < $1.0 }.map { "\($0.0)=\($0.1)" }.joined(
            separator: "&")
    }

    /// Percent-encoding of everything but RFC 3986's unreserved characters, in upper-case hex.
    static func encode(_ text: String) -> String { URLQuery.escape(text, keepingSlashes: false) }

    static func hex(_ bytes: [UInt8]) -> String { HexDigits.lowercase(bytes) }
}
