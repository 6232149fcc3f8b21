import FileModel
import Foundation
import HTTP

/// How a resumable upload's requests are worded: tus 1.0, or the IETF form (draft-ietf-httpbis-resumable-upload) in
/// one of the interop versions Apple's URLSession speaks (3, 5, 6). The two share every rule of the PATCH loop
/// (``TusPatchMachine``): an offset, a HEAD that tells the server's, a 409 when they disagree, a DELETE that ends it;
/// only the words differ, and they all live here.
package enum UploadDialect: Sendable, Equatable, Codable {
    /// tus 1.0 (`Tus-Resumable: 1.0.0`, `Upload-Metadata`, `Upload-Checksum`).
    case tus
    /// The IETF form at `version` (`Upload-Draft-Interop-Version`; completion is `Upload-Complete` from version 5,
    /// `Upload-Incomplete` in 3; version 6 appends as `application/partial-upload` and says `Upload-Length`).
    case ietf(version: Int)

    /// The interop versions this client speaks, newest first.
    package static let ietfVersions = [6, 5, 3]

    /// Marks `request` as one of this dialect's (every request of either form carries its version).
    package func mark(_ request: inout HTTPRequest) {
        switch self {
        case .tus: request.headers.add("Tus-Resumable", "1.0.0")
        case .ietf(let version): request.headers.add("Upload-Draft-Interop-Version", String(version))
        }
    }

    /// Says on `request` whether the upload is complete once its body is in (IETF only: tus knows from the length).
    func markCompletion(_ request: inout HTTPRequest, complete: Bool) {
        guard case .ietf(let version) = self else { return }
        if version >= 5 {
            request.headers.add("Upload-Complete", complete ? "?1" : "?0")
        } else {
            request.headers.add("Upload-Incomplete", complete ? "?0" : "?1")
        }
    }

    /// The media type of an appended piece's body.
    var appendContentType: String {
        switch self {
        case .tus: "application/offset+octet-stream"
        case .ietf(let version): version >= 6 ? "application/partial-upload" : "application/octet-stream"
        }
    }

    /// The media type of a body sent inside the creation request.
    var creationContentType: String {
        self == .tus ? "application/offset+octet-stream" : "application/octet-stream"
    }

    /// The header that carries a body's checksum, from tus's `ALGORITHM BASE64` form: tus's `Upload-Checksum` as is,
    /// or `Content-Digest: sha-256=:BASE64:` (RFC 9530; only SHA-256 is offered there).
    func checksumField(_ tusForm: String) -> (name: String, value: String) {
        guard case .ietf = self else { return ("Upload-Checksum", tusForm) }
        let digest = tusForm.split(separator: " ", maxSplits: 1).last.map(String.init) ?? ""
        return ("Content-Digest", "sha-256=:" + digest + ":")
    }

    /// How a result names the upload's method.
    var method: UploadMethod { self == .tus ? .tus : .resumable }

    /// How progress events name it.
    var eventMethod: TransferMethod { self == .tus ? .tus : .resumable }

    /// Whether an IETF answer calls the upload complete (nil in tus, or when the answer does not say).
    func saysComplete(_ headers: HTTPHeaders) -> Bool? {
        guard case .ietf(let version) = self else { return nil }
        let value = version >= 5 ? headers["Upload-Complete"] : headers["Upload-Incomplete"]
        guard let value else { return nil }
        return (value.trimmingCharacters(in: .whitespaces) == "?1") == (version >= 5)
    }

    /// The status ``TusPatchMachine`` knows for an IETF answer whose words differ from tus's: a digest refused (400
    /// `digest_mismatch`) is tus's 460, an append to an upload already complete (400 with `Upload-Complete: ?1`) is
    /// tus's 403 of a complete upload.
    func machineStatus(of response: HTTPResponse) -> Int {
        guard self != .tus, response.status == 400 else { return response.status }
        if response.errorCode == "digest_mismatch" { return 460 }
        // The draft's problem type for it is `completed-upload`; the reference server's code `completed_upload`.
        let named = ["completed_upload", "completed-upload"].contains(response.errorCode ?? "")
        return named || saysComplete(response.headers) == true ? 403 : 400
    }

    /// The IETF creation URL for a target: its endpoint with the destination in the query (tus's metadata keys, each
    /// value percent-encoded UTF-8, so any name arrives exactly).
    static func ietfCreationURL(endpoint: String, items: [UploadTarget.MetadataItem]) -> String {
        // Unreserved ASCII only (RFC 3986): everything else, every byte of a non-ASCII name included, is escaped.
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let query = items.map { item in
            let key = item.key.addingPercentEncoding(withAllowedCharacters: allowed) ?? item.key
            let value = item.value.addingPercentEncoding(withAllowedCharacters: allowed) ?? item.value
            return key + "=" + value
        }
        return endpoint + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
    }
}
