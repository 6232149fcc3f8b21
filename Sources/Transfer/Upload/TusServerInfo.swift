import HTTP

/// What a resumable-upload endpoint says of itself in its OPTIONS answer: a tus server's versions and extensions,
/// or the IETF form's interop version (its requests then in ``dialect``).
package struct TusServerInfo: Sendable, Equatable {
    /// How the upload's requests are worded.
    package var dialect = UploadDialect.tus
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

    /// Reads the OPTIONS answer of an IETF resumable-upload endpoint asked in interop version `asked`: nil unless it
    /// answers in a version this client speaks. Its form has creation with a body, termination and SHA-256 digests
    /// (`Content-Digest`), no concatenation and no deferred length; version 6 may say its largest upload.
    package init?(ietfHeaders headers: HTTPHeaders) {
        guard let version = headers["Upload-Draft-Interop-Version"].flatMap({ Int($0) }),
            UploadDialect.ietfVersions.contains(version)
        else { return nil }
        dialect = .ietf(version: version)
        versions = []
        extensions = ["creation", "creation-with-upload", "termination", "checksum"]
        checksumAlgorithms = ["sha256"]
        maxSize =
            (headers["Upload-Limit"] ?? "").split(separator: ",").lazy.compactMap { item -> Int64? in
                let pair = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: " ") }
                return pair.count == 2 && pair[0] == "max-size" ? Int64(pair[1]) : nil
            }.first
    }

    /// The chunk checksum to send: sha256 when offered, else sha1, else none.
    var checksumAlgorithm: String? {
        guard extensions.contains("checksum") else { return nil }
        if checksumAlgorithms.contains("sha256") { return "sha256" }
        if checksumAlgorithms.contains("sha1") { return "sha1" }
        return nil
    }
}
