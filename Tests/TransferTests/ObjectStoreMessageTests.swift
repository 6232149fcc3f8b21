import FileModel
import Foundation
import Testing

@testable import HTTP
@testable import Transfer

/// The pieces of the S3 client that need no store: addressing, answers, metadata, the signature's headers.
@Suite struct ObjectStoreMessageTests {
    @Test func buildsPathAndVirtualHostURLs() throws {
        let path = try ObjectStoreEndpoint(url: "http://127.0.0.1:9000/")
        #expect(path.url == "http://127.0.0.1:9000")
        #expect(path.url(bucket: "b", key: "a b/ü+x.txt") == "http://127.0.0.1:9000/b/a%20b/%C3%BC%2Bx.txt")
        #expect(
            path.url(bucket: "b", query: [("uploads", nil), ("prefix", "a/b")])
                == "http://127.0.0.1:9000/b?uploads&prefix=a%2Fb")
        #expect(path.url() == "http://127.0.0.1:9000/")
        let virtual = try ObjectStoreEndpoint(url: "https://s3.example.org", pathStyle: false)
        #expect(virtual.url(bucket: "photos", key: "k") == "https://photos.s3.example.org/k")
        #expect(throws: ObjectStoreError.self) { try ObjectStoreEndpoint(url: "ftp://x") }
        #expect(throws: ObjectStoreError.self) { try ObjectStoreEndpoint(url: "http://user:pw@x") }
        #expect(throws: ObjectStoreError.self) { try ObjectStoreEndpoint(url: "http://x/path") }
        #expect(throws: ObjectStoreError.self) { try ObjectStoreClient.checkBucketName("Upper") }
        #expect(throws: ObjectStoreError.self) { try ObjectStoreClient.checkBucketName("ab") }
        try ObjectStoreClient.checkBucketName("photos-2026.b")
    }

    @Test func readsListingsAndErrors() throws {
        let page = Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>b</Name><IsTruncated>true</IsTruncated>
            <Contents><Key>a &amp; b.txt</Key><LastModified>2026-11-30T12:00:00.500Z</LastModified><ETag>"abc"</ETag><Size>12</Size></Contents>
            <CommonPrefixes><Prefix>dir/</Prefix></CommonPrefixes><NextContinuationToken>t1</NextContinuationToken></ListBucketResult>
            """.utf8)
        let root = try #require(XMLTree(data: page)?.root)
        #expect(root.name == "ListBucketResult")
        #expect(root.child("Contents")?.text(of: "Key") == "a & b.txt")
        #expect(root.children("CommonPrefixes").compactMap { $0.text(of: "Prefix") } == ["dir/"])
        #expect(S3Time.parse("2026-11-30T12:00:00.500Z") == 1_796_040_000.5)
        #expect(XMLTree(data: Data("<a><b></a>".utf8)) == nil)
        // An entity pointing at a file is never read.
        let hostile = Data(
            "<?xml version=\"1.0\"?><!DOCTYPE a [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><a>&x;</a>".utf8)
        #expect(XMLTree(data: hostile)?.root.text.contains("root:") != true)
    }

    /// A request refused for its time says the clock is off, not that the keys are wrong (it said "check the
    /// access key" for `RequestTimeTooSkewed`).
    @Test func aSkewedClockIsToldAsTheClock() throws {
        let client = ObjectStoreClient(
            endpoint: try ObjectStoreEndpoint(url: "http://127.0.0.1:9"),
            accessKey: "k", secretKey: "s", http: HTTPClient())
        var headers = HTTPHeaders()
        headers.add("Date", "Fri, 04 Dec 2026 12:00:00 GMT")
        let body = Data(
            "<Error><Code>RequestTimeTooSkewed</Code><Message>The difference between the request time and the current time is too large.</Message></Error>"
                .utf8)
        let response = HTTPResponse(
            status: 403, headers: headers, body: body, bytesWritten: 0, effectiveURL: "http://127.0.0.1:9/b",
            attempts: 1)
        let error = client.failure(response, label: "GET b/k", bucket: "b", key: "k")
        #expect(error.category == .refused)
        #expect(
            error.description.contains("clock is off") && error.description.contains("12:00:00")
                && !error.description.contains("access key"), "\(error)")
    }

    @Test func writesTimesAsRcloneDoes() {
        #expect(
            ObjectMetadata.mtimeText(FileTime(seconds: 1_700_000_000, nanoseconds: 123_456_789))
                == "1700000000.123456789")
        #expect(ObjectMetadata.mtimeText(FileTime(seconds: 1_700_000_000, nanoseconds: 500_000_000)) == "1700000000.5")
        #expect(ObjectMetadata.mtimeText(FileTime(seconds: 1_700_000_000)) == "1700000000")
        #expect(ObjectMetadata.mtimeText(seconds: 1_700_000_000.25) == "1700000000.25")
        let info = ObjectInfo(
            key: "k", size: 1, etag: nil, lastModified: 5,
            metadata: ["mtime": "1700000000.123456789", "sha256": String(repeating: "A", count: 64)])
        #expect(abs(info.modificationTime - 1_700_000_000.123456789) < 1e-6)
        #expect(info.sha256 == String(repeating: "a", count: 64))
        #expect(
            ObjectInfo(key: "k", size: 1, etag: nil, lastModified: 5, metadata: ["mtime": "nan"]).modificationTime == 5)
    }

    @Test func digestsMatchCoreutils() throws {
        let path = NSTemporaryDirectory() + "digests-\(getpid())"
        try Data("The quick brown fox jumps over the lazy dog".utf8).write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        let digests = try ObjectMetadata.digests(of: path)
        #expect(SignatureV4.hex(digests.md5) == "9e107d9d372bb6826bd81d3542a419d6")
        #expect(digests.sha256 == "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592")
    }

    /// Above a few MiB the MD5 goes on a thread of its own beside the SHA-256, and the time that leaves is spent on
    /// the parts' MD5s from the last back: the same digests as one pass, and every part's MD5 its own bytes'.
    @Test func digestsOnTwoThreadsAreOnePassDigestsAndPartsHashedFromTheBack() throws {
        let path = NSTemporaryDirectory() + "digests-two-\(getpid())"
        let bytes = Data((0..<(4 << 20) + 12345).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) })
        try bytes.write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        let parts = ObjectStoreUploader.plan(size: Int64(bytes.count), partSize: 256 << 10)
        let digests = try ObjectMetadata.digests(of: path, parts: parts)
        let onePass = try ObjectMetadata.digestsInOnePass(of: path)
        #expect(digests.md5 == onePass.md5 && digests.sha256 == onePass.sha256)
        #expect(digests.sha256 == SHA256Hasher.digest([UInt8](bytes)).map { String(format: "%02x", $0) }.joined())
        let lastThree = try ObjectMetadata.partMD5s(of: path, parts) { true }.filter { $0.key > parts.count - 3 }
        var asked = 0
        let fromTheBack = try ObjectMetadata.partMD5s(of: path, parts) {
            asked += 1
            return asked <= 3
        }
        #expect(fromTheBack == lastThree && fromTheBack.count == 3)
        for (number, md5) in digests.partMD5s.merging(fromTheBack, uniquingKeysWith: { first, _ in first }) {
            let part = parts[number - 1]
            #expect(md5 == ObjectStoreClient.md5(bytes.subdata(in: Int(part.start)..<Int(part.start + part.length))))
        }
        #expect(throws: HTTPError.self) {
            try ObjectMetadata.digests(of: path + "-gone", parts: parts)
        }
    }

    /// Parts grow with the file, a 32nd of it between 8 and 64 MiB, beyond that only as S3's 10,000 parts ask.
    @Test func partsAreAThirtySecondOfTheFileWithinBounds() throws {
        let uploader = ObjectStoreUploader(
            client: ObjectStoreClient(
                endpoint: try ObjectStoreEndpoint(url: "http://127.0.0.1:9"), accessKey: "k", secretKey: "s",
                http: HTTPClient()),
            journal: nil)
        let mebibyte: Int64 = 1 << 20
        #expect(uploader.partSize(for: 40 * mebibyte) == 8 * mebibyte)
        #expect(uploader.partSize(for: 1024 * mebibyte) == 32 * mebibyte)
        #expect(uploader.partSize(for: 1056 * mebibyte - 1) == 33 * mebibyte)
        #expect(uploader.partSize(for: 100 << 30) == 64 * mebibyte)
        let huge: Int64 = 2 << 40
        #expect(uploader.partSize(for: huge) * 10_000 >= huge && uploader.partSize(for: huge) % mebibyte == 0)
        var chosen = uploader
        chosen.partSize = 1
        #expect(chosen.partSize(for: 1024 * mebibyte) == 5 * mebibyte, "S3's smallest part")
    }

    @Test func signsOnlyItsOwnOriginAndHashesBodiesInMemory() {
        let signer = ObjectStoreSigner(
            origin: URLOrigin(url: "http://127.0.0.1:9000")!,
            signature: SignatureV4(
                credentials: ObjectStoreCredentials(accessKey: "AK", secretKey: "SK", region: "us-east-1")))
        var headers = HTTPHeaders()
        headers.add("Content-MD5", "x")
        headers.add("User-Agent", "not signed")
        let fields = signer.signatureHeaders(
            method: "PUT", url: "http://127.0.0.1:9000/b/k", headers: headers,
            body: .data(Data("hi".utf8), contentType: "text/plain"))
        let authorization = fields.first { $0.0 == "Authorization" }?.1 ?? ""
        #expect(authorization.contains("SignedHeaders=content-md5;host;x-amz-content-sha256;x-amz-date"))
        #expect(
            fields.first { $0.0 == "x-amz-content-sha256" }?.1
                == "8f434346648f6b96df89dda901c5176b10a6d83961dd3c1ac88b59b2dc327aa4")
        let file = signer.signatureHeaders(
            method: "PUT", url: "http://127.0.0.1:9000/b/k", headers: HTTPHeaders(),
            body: .file(path: "/x", offset: 0, length: 1, contentType: "a/b"))
        #expect(file.first { $0.0 == "x-amz-content-sha256" }?.1 == "UNSIGNED-PAYLOAD")
    }
}
