import HTTP

/// What a tus server says of itself in its OPTIONS answer.
package struct TusServerInfo: Sendable, Equatable {
    /// Protocol versions (`1.0.0`).
    package var versions: [String]
    /// Extensions: `creation`, `creation-with-upload`, `termination`, `checksum`, `expiration`, `concatenation`, …
    package var extensions: Set<String>
    /// Largest upload accepted, if the server says.
    package var maxSize: Int64?
    /// Checksum algorithms accepted.
    package var checksumAlgorithms: Set<String>

    /// Reads the headers of an OPTIONS answer; nil when they do not describe a tus 1.0 server.
    package init?(headers: HTTPHeaders) {
        guard let version = headers["Tus-Version"] ?? headers["Tus-Resumable"] else { return nil }
        versions = version.split(separator: ",").map { $0.trimmingCharacters(in: " ") }
        guard versions.contains("1.0.0") else { return nil }
        extensions = Set((headers["Tus-Extension"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: " ") })
        maxSize = headers["Tus-Max-Size"].flatMap { Int64($0) }
        checksumAlgorithms = Set(
            (headers["Tus-Checksum-Algorithm"] ?? "").split(separator: ",").map {
                $0.trimmingCharacters(in: " ").lowercased()
            })
    }

    /// The chunk checksum to send: sha256 when offered, else sha1, else none.
    var checksumAlgorithm: String? {
        guard extensions.contains("checksum") else { return nil }
        if checksumAlgorithms.contains("sha256") { return "sha256" }
        if checksumAlgorithms.contains("sha1") { return "sha1" }
        return nil
    }
}
