import Foundation
import HTTP

extension ObjectStoreClient {
    /// Starts a multipart upload with the object's metadata; its upload id.
    package func startMultipart(
        bucket: String, key: String, metadata: [String: String], contentType: String = "application/octet-stream"
    ) async throws(ObjectStoreError) -> String {
        var request = HTTPRequest(
            method: "POST", url: endpoint.url(bucket: bucket, key: key, query: [("uploads", nil)]))
        request.headers.add("Content-Type", contentType)
        for (name, value) in metadata.sorted(by: { $0.key < $1.key }) {
            request.headers.add("x-amz-meta-" + name, value)
        }
        let label = label("start upload", bucket, key)
        let response = try await send(request, bucket: bucket, label: label)
        guard response.isSuccess else { throw failure(response, label: label, bucket: bucket, key: key) }
        guard let id = try xml(response, label: label).text(of: "UploadId"), !id.isEmpty else {
            throw .malformedAnswer(request: label, detail: "no UploadId")
        }
        return id
    }

    /// Sends bytes `offset..<offset+length` of `file` as part `number`, its MD5 checked by the store; the ETag.
    package func uploadPart(
        bucket: String, key: String, uploadID: String, number: Int, file: String, offset: Int64, length: Int64,
        md5: [UInt8],
        maxBytesPerSecond: Int64? = nil, onProgress: (@Sendable (Int64) -> Void)? = nil
    ) async throws(ObjectStoreError) -> String {
        var request = HTTPRequest(
            method: "PUT",
            url: endpoint.url(
                bucket: bucket, key: key, query: [("partNumber", String(number)), ("uploadId", uploadID)]),
            body: .file(path: file, offset: offset, length: length, contentType: "application/octet-stream"))
        request.headers.add("Content-MD5", Data(md5).base64EncodedString())
        request.maxSendBytesPerSecond = maxBytesPerSecond
        let label = label("PUT part \(number)", bucket, key)
        let response = try await send(request, bucket: bucket, label: label, onProgress: Self.sentBytes(onProgress))
        guard response.isSuccess else { throw failure(response, label: label, bucket: bucket, key: key) }
        return try Self.checkETag(response.headers["ETag"], md5: md5, label: label)
    }

    /// Every part the store holds for an upload, in part order (ListParts, paged); `NoSuchUpload` when the
    /// upload is gone (completed or aborted) comes back as a ``ObjectStoreError/server(request:status:code:message:)``
    /// with that code.
    package func listParts(bucket: String, key: String, uploadID: String) async throws(ObjectStoreError)
        -> [UploadedPart]
    {
        var parts: [UploadedPart] = []
        var marker: String?
        let label = label("list parts", bucket, key)
        while true {
            var query: [(String, String?)] = [("uploadId", uploadID), ("max-parts", "1000")]
            if let marker { query.append(("part-number-marker", marker)) }
            let response = try await send(
                HTTPRequest(url: endpoint.url(bucket: bucket, key: key, query: query)), bucket: bucket, label: label)
            guard response.isSuccess else { throw failure(response, label: label, bucket: bucket, key: key) }
            let root = try xml(response, label: label)
            for part in root.children("Part") {
                guard let number = part.text(of: "PartNumber").flatMap(Int.init), let etag = part.text(of: "ETag"),
                    let size = part.text(of: "Size").flatMap(Int64.init)
                else { throw .malformedAnswer(request: label, detail: "a part without number, ETag or size") }
                parts.append(UploadedPart(number: number, etag: etag, size: size))
            }
            guard root.text(of: "IsTruncated") == "true", let next = root.text(of: "NextPartNumberMarker"),
                next != marker
            else { break }
            marker = next
        }
        return parts.sorted { $0.number < $1.number }
    }

    /// An unfinished upload the store holds, as ListMultipartUploads names it.
    package struct UnfinishedUpload: Sendable, Equatable {
        /// The object's key.
        package var key: String
        /// The store's upload id.
        package var uploadID: String
        /// When it was started, as the store's ISO 8601 text (they sort as times do).
        package var initiated: String
    }

    /// The unfinished uploads whose key starts with `prefix` (ListMultipartUploads, paged).
    package func unfinishedUploads(bucket: String, prefix: String) async throws(ObjectStoreError) -> [UnfinishedUpload]
    {
        var uploads: [UnfinishedUpload] = []
        var markers: (key: String, id: String)?
        let label = label("list uploads", bucket, prefix)
        while true {
            var query: [(String, String?)] = [("uploads", nil), ("prefix", prefix)]
            if let markers { query += [("key-marker", markers.key), ("upload-id-marker", markers.id)] }
            let response = try await send(
                HTTPRequest(url: endpoint.url(bucket: bucket, query: query)), bucket: bucket, label: label)
            guard response.isSuccess else { throw failure(response, label: label, bucket: bucket) }
            let root = try xml(response, label: label)
            for upload in root.children("Upload") {
                guard let key = upload.text(of: "Key"), let id = upload.text(of: "UploadId") else { continue }
                uploads.append(UnfinishedUpload(key: key, uploadID: id, initiated: upload.text(of: "Initiated") ?? ""))
            }
            guard root.text(of: "IsTruncated") == "true", let key = root.text(of: "NextKeyMarker"),
                let id = root.text(of: "NextUploadIdMarker"), key != markers?.key || id != markers?.id
            else { break }
            markers = (key, id)
        }
        return uploads
    }

    /// Joins the parts into the object; its ETag. The store may fail after answering 200, in the body.
    @discardableResult
    package func completeMultipart(bucket: String, key: String, uploadID: String, parts: [UploadedPart])
        async throws(ObjectStoreError) -> String
    {
        let items = parts.map {
            "<Part><PartNumber>\($0.number)</PartNumber><ETag>\(Self.escaped($0.etag))</ETag></Part>"
        }.joined()
        let body = Data("<CompleteMultipartUpload>\(items)</CompleteMultipartUpload>".utf8)
        // Completing twice is harmless (the second finds the upload gone), so a lost answer may be retried.
        let request = HTTPRequest(
            method: "POST", url: endpoint.url(bucket: bucket, key: key, query: [("uploadId", uploadID)]),
            body: .data(body, contentType: "application/xml"), isIdempotent: true)
        let label = label("complete upload", bucket, key)
        let response = try await send(request, bucket: bucket, label: label)
        guard response.isSuccess else { throw failure(response, label: label, bucket: bucket, key: key) }
        let root = try xml(response, label: label)
        if root.name == "Error" {
            throw .server(
                request: label, status: 500, code: root.text(of: "Code"),
                message: root.text(of: "Message") ?? "completion failed")
        }
        return root.text(of: "ETag") ?? ""
    }

    /// Drops an unfinished upload and the parts the store holds for it; one already gone is fine.
    package func abortMultipart(bucket: String, key: String, uploadID: String) async throws(ObjectStoreError) {
        let label = label("abort upload", bucket, key)
        let response = try await send(
            HTTPRequest(method: "DELETE", url: endpoint.url(bucket: bucket, key: key, query: [("uploadId", uploadID)])),
            bucket: bucket, label: label)
        if response.status == 404 { return }
        guard response.isSuccess else { throw failure(response, label: label, bucket: bucket, key: key) }
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
