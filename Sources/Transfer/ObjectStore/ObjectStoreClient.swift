import FileModel
import Foundation
import HTTP

/// The S3 API of one store, request by request: buckets, listings, objects and their metadata. Every request is
/// signed (Signature V4) for the store's origin only, retried as the HTTP client's policy says (a 503 `SlowDown`
/// with `Retry-After` waits as told), and every failure comes back as an ``ObjectStoreError`` naming the request
/// and the store's error code. Multipart uploads are in `ObjectStoreClient+Multipart.swift`.
package struct ObjectStoreClient: Sendable {
    /// Where the store answers.
    package let endpoint: ObjectStoreEndpoint
    /// The keys (the region comes from the endpoint).
    package let credentials: ObjectStoreCredentials
    private let base: HTTPClient
    /// The remote's name, put before bucket names in messages (`backup:photos/a.jpg: no such object`).
    package var name: String?

    /// A request's label: what it does, ` on `, then the object as the user writes it (`HEAD on
    /// backup:photos/a.jpg`); a message names the object alone (``labelSeparator``), `-v`'s details the whole.
    package func label(_ action: String, _ bucket: String, _ key: String? = nil) -> String {
        action + Self.labelSeparator + (name.map { $0 + ":" } ?? "") + bucket + (key.map { "/" + $0 } ?? "")
    }

    /// What parts a request's action from its object in a label.
    package static let labelSeparator = " on "
    /// Buckets this client saw exist (shared by its copies): asked once, not before every step of an operation
    /// (a sync's root check, its root, a missing key's HEAD each asked again: three round trips in a row).
    private let knownBuckets = LockedValue<Set<String>>([])

    /// The largest answer kept in memory (a listing page of 1,000 long keys is well below).
    static let answerLimit = 8 << 20

    /// A client for `endpoint` signing with `accessKey`/`secretKey`; `http` gives the transport settings
    /// (TLS, logging, offline, retries).
    package init(endpoint: ObjectStoreEndpoint, accessKey: String, secretKey: String, http: HTTPClient) {
        self.endpoint = endpoint
        credentials = ObjectStoreCredentials(accessKey: accessKey, secretKey: secretKey, region: endpoint.region)
        base = http
    }

    /// A bucket as messages name it: `NAME:bucket` when the client has a name.
    package func shown(_ bucket: String) -> String { name.map { "\($0):\(bucket)" } ?? bucket }

    /// The transport for requests about `bucket`, signing for the origin they go to.
    package func http(bucket: String?) -> HTTPClient {
        var client = base
        if let origin = endpoint.origin(bucket: bucket) {
            client.configuration.signer = ObjectStoreSigner(
                origin: origin, signature: SignatureV4(credentials: credentials))
        }
        return client
    }

    /// The URL of an object, for the segmented downloader (signed by ``http(bucket:)``).
    package func objectURL(bucket: String, key: String) -> String { endpoint.url(bucket: bucket, key: key) }

    // MARK: Buckets

    /// Every bucket of the account.
    package func listBuckets() async throws(ObjectStoreError) -> [BucketInfo] {
        let label = name.map { "\($0): list buckets" } ?? "list buckets"
        let response = try await send(HTTPRequest(url: endpoint.url()), bucket: nil, label: label)
        guard response.isSuccess else { throw failure(response, label: label) }
        let root = try xml(response, label: label)
        return (root.child("Buckets")?.children("Bucket") ?? []).compactMap { bucket in
            bucket.text(of: "Name").map {
                BucketInfo(name: $0, created: bucket.text(of: "CreationDate").flatMap(S3Time.parse))
            }
        }
    }

    /// Creates a bucket; one the account already owns is fine.
    package func createBucket(_ bucket: String) async throws(ObjectStoreError) {
        try Self.checkBucketName(bucket)
        let label = label("PUT", bucket)
        let response = try await send(
            HTTPRequest(method: "PUT", url: endpoint.url(bucket: bucket)), bucket: bucket, label: label)
        if response.isSuccess { return remember(bucket) }
        let error = failure(response, label: label, bucket: bucket)
        if case .server(_, 409, "BucketAlreadyOwnedByYou", _) = error { return remember(bucket) }
        throw error
    }

    /// Removes an empty bucket.
    package func deleteBucket(_ bucket: String) async throws(ObjectStoreError) {
        let label = label("DELETE", bucket)
        let response = try await send(
            HTTPRequest(method: "DELETE", url: endpoint.url(bucket: bucket)), bucket: bucket, label: label)
        guard response.isSuccess else { throw failure(response, label: label, bucket: bucket) }
        knownBuckets.withLock { _ = $0.remove(bucket) }
    }

    private func remember(_ bucket: String) { knownBuckets.withLock { _ = $0.insert(bucket) } }

    /// Whether the bucket exists (and these keys may see it).
    package func bucketExists(_ bucket: String) async throws(ObjectStoreError) -> Bool {
        if knownBuckets.withLock({ $0.contains(bucket) }) { return true }
        let label = label("HEAD", bucket)
        let response = try await send(
            HTTPRequest(method: "HEAD", url: endpoint.url(bucket: bucket)), bucket: bucket, label: label)
        if response.status == 404 { return false }
        guard response.isSuccess else { throw failure(response, label: label, bucket: bucket) }
        remember(bucket)
        return true
    }

    // MARK: Listing

    /// One page of ListObjectsV2 below `prefix`; with a `delimiter`, keys past it are folded into prefixes.
    package func list(
        bucket: String, prefix: String = "", delimiter: String? = nil, continuation: String? = nil, maxKeys: Int = 1000
    ) async throws(ObjectStoreError) -> ObjectListPage {
        var query: [(String, String?)] = [("list-type", "2"), ("max-keys", String(maxKeys))]
        if !prefix.isEmpty { query.append(("prefix", prefix)) }
        if let delimiter { query.append(("delimiter", delimiter)) }
        if let continuation { query.append(("continuation-token", continuation)) }
        let label = label("list", bucket, prefix)
        let response = try await send(
            HTTPRequest(url: endpoint.url(bucket: bucket, query: query)), bucket: bucket, label: label)
        guard response.isSuccess else { throw failure(response, label: label, bucket: bucket) }
        let root = try xml(response, label: label)
        var objects: [ObjectInfo] = []
        for item in root.children("Contents") {
            guard let key = item.text(of: "Key"), let size = item.text(of: "Size").flatMap(Int64.init), size >= 0 else {
                throw .malformedAnswer(request: label, detail: "an entry without a key or size")
            }
            objects.append(
                ObjectInfo(
                    key: key, size: size, etag: item.text(of: "ETag"),
                    lastModified: item.text(of: "LastModified").flatMap(S3Time.parse) ?? 0))
        }
        let prefixes = root.children("CommonPrefixes").compactMap { $0.text(of: "Prefix") }
        let truncated = root.text(of: "IsTruncated") == "true"
        let next = truncated ? root.text(of: "NextContinuationToken") : nil
        if truncated, next == nil || (objects.isEmpty && prefixes.isEmpty) {
            throw .malformedAnswer(request: label, detail: "a truncated page without a continuation token or entries")
        }
        return ObjectListPage(objects: objects, prefixes: prefixes, nextToken: next)
    }

    // MARK: Objects

    /// The object's size, ETag, time and metadata; nil when there is none under `key`.
    /// With `bucketChecked` (its caller asks ``bucketExists(_:)`` beside it), a 404 is not followed by that question.
    package func head(bucket: String, key: String, bucketChecked: Bool = false) async throws(ObjectStoreError)
        -> ObjectInfo?
    {
        let label = label("HEAD", bucket, key)
        let response = try await send(
            HTTPRequest(method: "HEAD", url: endpoint.url(bucket: bucket, key: key)), bucket: bucket, label: label)
        if response.status == 404 {
            // A HEAD has no body to say which is missing; an absent bucket must not read as an absent key.
            if !bucketChecked, try await !bucketExists(bucket) { throw .noSuchBucket(bucket: shown(bucket)) }
            return nil
        }
        guard response.isSuccess else { throw failure(response, label: label, bucket: bucket, key: key) }
        return Self.info(key: key, headers: response.headers)
    }

    /// Stores a local file under `key` in one request, with its MD5 (computed when not given) checked by the
    /// store; the ETag.
    @discardableResult
    package func put(
        bucket: String, key: String, file: String, md5 given: [UInt8]? = nil, metadata: [String: String] = [:],
        contentType: String = "application/octet-stream", onProgress: (@Sendable (Int64) -> Void)? = nil
    ) async throws(ObjectStoreError) -> String {
        let size = try Self.fileSize(file)
        let md5: [UInt8]
        if let given { md5 = given } else { md5 = try Self.md5(file: file, offset: 0, length: size) }
        var request = HTTPRequest(
            method: "PUT", url: endpoint.url(bucket: bucket, key: key),
            body: .file(path: file, offset: 0, length: size, contentType: contentType))
        request.headers.add("Content-MD5", Data(md5).base64EncodedString())
        for (name, value) in metadata.sorted(by: { $0.key < $1.key }) {
            request.headers.add("x-amz-meta-" + name, value)
        }
        let label = label("PUT", bucket, key)
        let response = try await send(request, bucket: bucket, label: label, onProgress: Self.sentBytes(onProgress))
        guard response.isSuccess else { throw failure(response, label: label, bucket: bucket, key: key) }
        return try Self.checkETag(response.headers["ETag"], md5: md5, label: label)
    }

    /// Stores bytes from memory under `key`.
    @discardableResult
    package func put(bucket: String, key: String, data: Data, metadata: [String: String] = [:])
        async throws(ObjectStoreError) -> String
    {
        let md5 = Self.md5(data)
        var request = HTTPRequest(
            method: "PUT", url: endpoint.url(bucket: bucket, key: key),
            body: .data(data, contentType: "application/octet-stream"))
        request.headers.add("Content-MD5", Data(md5).base64EncodedString())
        for (name, value) in metadata.sorted(by: { $0.key < $1.key }) {
            request.headers.add("x-amz-meta-" + name, value)
        }
        let label = label("PUT", bucket, key)
        let response = try await send(request, bucket: bucket, label: label)
        guard response.isSuccess else { throw failure(response, label: label, bucket: bucket, key: key) }
        return try Self.checkETag(response.headers["ETag"], md5: md5, label: label)
    }

    /// Removes an object; one already gone is fine (S3 answers 204 either way).
    package func delete(bucket: String, key: String) async throws(ObjectStoreError) {
        let label = label("DELETE", bucket, key)
        let response = try await send(
            HTTPRequest(method: "DELETE", url: endpoint.url(bucket: bucket, key: key)), bucket: bucket, label: label)
        if response.status == 404, case .noSuchKey = failure(response, label: label, bucket: bucket, key: key) {
            return
        }
        guard response.isSuccess else { throw failure(response, label: label, bucket: bucket, key: key) }
    }

    /// Replaces an object's metadata by copying it onto itself (S3 has no other way); the content is unchanged
    /// and, for an object stored in one piece, so is its ETag.
    package func replaceMetadata(bucket: String, key: String, metadata: [String: String], contentType: String?)
        async throws(ObjectStoreError)
    {
        try await copy(bucket: bucket, key: key, toBucket: bucket, key: key, replacing: (metadata, contentType))
    }

    /// Copies an object inside the store (its metadata with it, or `replacing` it), the bytes never leaving the
    /// store. One request copies up to 5 GiB (the S3 limit).
    package func copy(
        bucket: String, key: String, toBucket targetBucket: String, key targetKey: String,
        replacing: (metadata: [String: String], contentType: String?)? = nil
    ) async throws(ObjectStoreError) {
        var request = HTTPRequest(method: "PUT", url: endpoint.url(bucket: targetBucket, key: targetKey))
        request.headers.add(
            "x-amz-copy-source",
            "/" + SignatureV4.encode(bucket) + "/"
                + key.split(separator: "/", omittingEmptySubsequences: false).map { SignatureV4.encode(String($0)) }
                .joined(separator: "/"))
        if let replacing {
            request.headers.add("x-amz-metadata-directive", "REPLACE")
            if let contentType = replacing.contentType { request.headers.add("Content-Type", contentType) }
            for (name, value) in replacing.metadata.sorted(by: { $0.key < $1.key }) {
                request.headers.add("x-amz-meta-" + name, value)
            }
        }
        let label = label("copy", bucket, key)
        let response = try await send(request, bucket: targetBucket, label: label)
        // A copy can fail after its 200 has started: the error then comes in the body.
        if response.isSuccess, let root = XMLTree(data: response.body)?.root, root.name == "Error" {
            throw .server(
                request: label, status: 500, code: root.text(of: "Code"),
                message: root.text(of: "Message") ?? "copy failed")
        }
        guard response.isSuccess else { throw failure(response, label: label, bucket: targetBucket, key: targetKey) }
    }

    // MARK: Plumbing

    func send(
        _ request: HTTPRequest, bucket: String?, label: String,
        onProgress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(ObjectStoreError) -> HTTPResponse {
        var request = request
        if case .memory = request.sink { request.sink = .memory(limit: Self.answerLimit) }
        request.redirects = .never
        do {
            return try await http(bucket: bucket).send(request, onProgress: onProgress)
        } catch let error as HTTPError {
            throw .transfer(error)
        } catch {
            throw .transfer(.cancelled(request: label))
        }
    }

    func xml(_ response: HTTPResponse, label: String) throws(ObjectStoreError) -> XMLTree.Element {
        guard let tree = XMLTree(data: response.body) else {
            throw .malformedAnswer(request: label, detail: "the body is not XML (\(response.body.count) bytes)")
        }
        return tree.root
    }

    /// The error a failed answer means, from its status and the S3 error body (`<Error><Code>…`).
    func failure(_ response: HTTPResponse, label: String, bucket: String? = nil, key: String? = nil) -> ObjectStoreError
    {
        let root = XMLTree(data: response.body)?.root
        let code = root?.text(of: "Code")
        let message = root?.text(of: "Message") ?? (response.body.isEmpty ? "no details" : response.errorMessage)
        switch (response.status, code) {
        case (404, "NoSuchBucket"): return .noSuchBucket(bucket: shown(bucket ?? "?"))
        case (404, "NoSuchKey"): return .noSuchKey(bucket: shown(bucket ?? "?"), key: key ?? "?")
        case (404, nil) where key != nil: return .noSuchKey(bucket: shown(bucket ?? "?"), key: key!)
        case (404, nil) where bucket != nil: return .noSuchBucket(bucket: shown(bucket!))
        case (403, "RequestTimeTooSkewed"):
            // Refused for the clock, not the keys: the request's time is too far from the store's.
            return .clockSkewed(request: label, storeTime: response.headers["Date"])
        case (401, _), (403, "InvalidAccessKeyId"), (403, "SignatureDoesNotMatch"), (403, "AccessDenied"), (403, nil):
            return .accessDenied(request: label, code: code, message: message)
        default: return .server(request: label, status: response.status, code: code, message: message)
        }
    }

    static func sentBytes(_ report: (@Sendable (Int64) -> Void)?) -> (@Sendable (TransferProgress) -> Void)? {
        guard let report else { return nil }
        return { progress in report(progress.sent) }
    }

    package static func info(key: String, headers: HTTPHeaders) -> ObjectInfo {
        var metadata: [String: String] = [:]
        for field in headers where field.name.lowercased().hasPrefix("x-amz-meta-") {
            metadata[String(field.name.lowercased().dropFirst("x-amz-meta-".count))] = field.value
        }
        return ObjectInfo(
            key: key, size: headers["Content-Length"].flatMap(Int64.init) ?? 0, etag: headers["ETag"],
            lastModified: headers["Last-Modified"].flatMap(HTTPDate.parse) ?? 0, metadata: metadata,
            contentType: headers["Content-Type"])
    }

    /// The ETag answered for a single PUT or part must be the MD5 sent: anything else is not what was sent.
    static func checkETag(_ etag: String?, md5: [UInt8], label: String) throws(ObjectStoreError) -> String {
        guard let etag else { return "" }
        guard ObjectInfo.unquoted(etag).lowercased() == SignatureV4.hex(md5) else {
            throw .integrity(
                request: label,
                detail: "the store's ETag \(etag) is not the MD5 of the bytes sent (\(SignatureV4.hex(md5)))")
        }
        return etag
    }

    static func fileSize(_ path: String) throws(ObjectStoreError) -> Int64 {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .localFile(path: path, message: String(cString: strerror(errno))) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .localFile(path: path, message: "not a regular file") }
        return Int64(info.st_size)
    }

    package static func md5(file: String, offset: Int64, length: Int64) throws(ObjectStoreError) -> [UInt8] {
        let hasher = SHA256Hasher(algorithm: .md5)
        do {
            try hasher.update(file: file, offset: offset, length: length)
        } catch {
            throw .localFile(path: file, message: error.detailWithoutPath)
        }
        return hasher.finalize()
    }

    static func md5(_ data: Data) -> [UInt8] {
        let hasher = SHA256Hasher(algorithm: .md5)
        hasher.update(data)
        return hasher.finalize()
    }

    /// S3's rules for bucket names (3–63 of a-z, 0-9, `-`, `.`; starting and ending with a letter or digit).
    package static func checkBucketName(_ name: String) throws(ObjectStoreError) {
        let allowed = name.utf8.allSatisfy {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
        }
        guard (3...63).contains(name.utf8.count), allowed, let first = name.first, let last = name.last,
            first.isLetter || first.isNumber, last.isLetter || last.isNumber
        else {
            throw .invalidAddress(name, reason: "not a bucket name (3 to 63 lower-case letters, digits, '-' and '.')")
        }
    }
}
