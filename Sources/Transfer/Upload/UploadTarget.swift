import Foundation
import HTTP

/// Where an upload goes: a tus endpoint with its metadata, and optionally a multipart endpoint for
/// servers without tus. The bearer token is never journaled.
package struct UploadTarget: Sendable, Codable, Equatable {
    /// The tus creation URL (e.g. `https://host/api/file-browser/tus`).
    package var tusEndpoint: String
    /// Upload-Metadata pairs, in order (`filename` first).
    package var metadata: [MetadataItem]
    /// The IETF resumable-upload endpoint (Officer's `/api/file-browser/resumable`), if the target has one: the
    /// destination goes in its query, from ``metadata``.
    package var resumableEndpoint: String?
    /// The multipart upload URL for servers without tus (Officer's `/api/file-browser/upload`), if any.
    package var multipartEndpoint: String?
    /// Text fields sent with a multipart upload.
    package var multipartFields: [MetadataItem]
    /// The file name the server stores.
    package var fileName: String
    /// Where it lands, for messages and the journal (`officer:/Photos/a.jpg` or the tus URL).
    package var label: String
    /// Sent as `Authorization: Bearer …` (to the target's host only); not encoded.
    package var credential: BearerCredential?

    /// One metadata key and value.
    package struct MetadataItem: Sendable, Codable, Equatable {
        /// Key.
        package var key: String
        /// Value.
        package var value: String

        /// Creates an item.
        package init(_ key: String, _ value: String) {
            self.key = key
            self.value = value
        }
    }

    /// Creates a target.
    package init(
        tusEndpoint: String, metadata: [MetadataItem], multipartEndpoint: String? = nil,
        multipartFields: [MetadataItem] = [],
        fileName: String, label: String, credential: BearerCredential? = nil
    ) {
        self.tusEndpoint = tusEndpoint
        self.metadata = metadata
        self.multipartEndpoint = multipartEndpoint
        self.multipartFields = multipartFields
        self.fileName = fileName
        self.label = label
        self.credential = credential
    }

    /// The same target allowed to replace what its name holds (`overwrite` set where the target carries it): for an
    /// upload sent again over its own damaged copy, which it placed there itself.
    package func replacingItsOwnCopy() -> UploadTarget {
        var target = self
        let replaced = { (items: [MetadataItem]) in
            items.map { $0.key == "overwrite" ? MetadataItem("overwrite", "true") : $0 }
        }
        target.metadata = replaced(metadata)
        target.multipartFields = replaced(multipartFields)
        // A target that says `overwrite` in its form says it in its tus metadata only when true (Officer's).
        if multipartFields.contains(where: { $0.key == "overwrite" }),
            !metadata.contains(where: { $0.key == "overwrite" })
        {
            target.metadata.append(MetadataItem("overwrite", "true"))
        }
        return target
    }

    /// Any tus 1.0 server: metadata `filename` and `mtime`.
    package static func tus(url: String, fileName: String, mtime: Double? = nil, credential: BearerCredential? = nil)
        -> UploadTarget
    {
        var metadata = [MetadataItem("filename", fileName)]
        if let mtime { metadata.append(MetadataItem("mtime", String(mtime))) }
        return UploadTarget(
            tusEndpoint: url, metadata: metadata, fileName: fileName, label: url, credential: credential)
    }

    /// The endpoint an upload in `dialect` is created at: tus's, or the IETF form's (its destination then goes in the
    /// creation URL's query).
    func endpoint(in dialect: UploadDialect) -> String {
        dialect == .tus ? tusEndpoint : resumableEndpoint ?? tusEndpoint
    }

    /// The `Upload-Metadata` header value.
    var metadataHeader: String { Self.header(metadata) }

    /// The header value for `items`: each key, a space, its value in base64, comma-separated.
    static func header(_ items: [MetadataItem]) -> String {
        items.map { $0.key + " " + Data($0.value.utf8).base64EncodedString() }.joined(separator: ",")
    }

    /// Whether `key` can be a metadata key: printable ASCII without spaces or commas, as tus requires.
    package static func isValidMetadataKey(_ key: String) -> Bool {
        !key.isEmpty && key.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ",") }
    }

    enum CodingKeys: String, CodingKey {
        case tusEndpoint, resumableEndpoint, metadata, multipartEndpoint, multipartFields, fileName, label
    }
}
