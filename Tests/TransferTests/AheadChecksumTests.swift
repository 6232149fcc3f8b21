import Foundation
import HTTP
import Journal
import TestSupport
import Testing

@testable import Transfer

/// A chunk's checksum computed ahead gives the digest of exactly the bytes it names, whole or a prefix taken while
/// it hashes, and never of more than the caller may send.
@Suite struct AheadChecksumTests {
    /// A file of `mebibytes` MiB whose bytes differ at every offset.
    static func file(_ directory: TemporaryDirectory, mebibytes: Int) throws -> String {
        var bytes = Data(count: mebibytes << 20)
        bytes.withUnsafeMutableBytes { raw in
            let words = raw.bindMemory(to: UInt64.self)
            for index in words.indices { words[index] = UInt64(index) &* 0x9E37_79B9_7F4A_7C15 }
        }
        let path = directory.file("chunks.bin")
        try bytes.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// tus's `Upload-Checksum` of `length` bytes of `path` from `offset`, computed in one go.
    static func expected(_ path: String, offset: Int64, length: Int64) throws -> String {
        try TusUploader.checksumHeader("sha256", path: path, offset: offset, length: length)
    }

    @Test func aPrefixTakenWhileHashingIsTheChecksumOfItsBytes() async throws {
        let directory = TemporaryDirectory(prefix: "ahead-checksum")
        let path = try Self.file(directory, mebibytes: 40)
        let length: Int64 = 36 << 20
        let ahead = AheadChecksum(
            path: path, fileOffset: 3 << 20, start: 3 << 20, length: length, algorithm: "sha256", plugins: [:])
        // Asked at once for anything: whatever prefix it stops at, its checksum is of those bytes.
        let taken = try #require(await ahead.take(minimum: 1, maximum: length))
        #expect(taken.length >= 1 && taken.length <= length)
        #expect(taken.header == (try Self.expected(path, offset: 3 << 20, length: taken.length)))
    }

    @Test func theWholeChunkOnceHashedAndNeverMoreThanAllowed() async throws {
        let directory = TemporaryDirectory(prefix: "ahead-checksum")
        let path = try Self.file(directory, mebibytes: 20)
        let length: Int64 = 18 << 20
        let ahead = AheadChecksum(
            path: path, fileOffset: 1 << 20, start: 0, length: length, algorithm: "sha1", plugins: [:])
        let whole = try #require(await ahead.take(minimum: length, maximum: length))
        #expect(whole == .init(length: length, header: try sha1Header(path, offset: 1 << 20, length: length)))
        // Hashed past what a later ask may send: no checksum rather than one of more bytes.
        #expect(await ahead.take(minimum: 1, maximum: length - 1) == nil)
        // A chunk that ends sooner than planned gets all it may send at most.
        let short = AheadChecksum(
            path: path, fileOffset: 0, start: 0, length: 2 << 20, algorithm: "sha256", plugins: [:])
        let all = try #require(await short.take(minimum: 8 << 20, maximum: 8 << 20))
        #expect(all == .init(length: 2 << 20, header: try Self.expected(path, offset: 0, length: 2 << 20)))
    }

    @Test func anUnreadableFileACancelOrNothingToHashGivesNone() async throws {
        let missing = AheadChecksum(
            path: "/nonexistent/chunks.bin", fileOffset: 0, start: 0, length: 8 << 20, algorithm: "sha256",
            plugins: [:])
        #expect(await missing.take(minimum: 1, maximum: 8 << 20) == nil)
        let directory = TemporaryDirectory(prefix: "ahead-checksum")
        let path = try Self.file(directory, mebibytes: 8)
        let cancelled = AheadChecksum(
            path: path, fileOffset: 0, start: 0, length: 8 << 20, algorithm: "sha256", plugins: [:])
        cancelled.cancel()
        #expect(await cancelled.take(minimum: 1, maximum: 8 << 20) == nil)
        // Nothing to hash gives no checksum of nothing: a request is never built for no bytes.
        let empty = AheadChecksum(path: path, fileOffset: 0, start: 0, length: 0, algorithm: "sha256", plugins: [:])
        #expect(await empty.take(minimum: 1, maximum: 8 << 20) == nil)
    }

    /// The requests of a part: each one's checksum is of the bytes its body names, when a chunk goes as a prefix of
    /// what was asked as well, and each next chunk starts where the last one ended.
    @Test func eachRequestsChecksumIsOfTheBytesItSends() async throws {
        let directory = TemporaryDirectory(prefix: "ahead-checksum")
        let path = try Self.file(directory, mebibytes: 40)
        let part = TransferJournal.UploadPart(
            index: 0, start: 0, length: 40 << 20, url: "http://127.0.0.1:9/files/1", offset: 0)
        var chunks = TusPatchChunks(part: part, path: path, identity: nil, algorithm: "sha256", rate: nil)
        defer { chunks.cancelAhead() }
        var offset: Int64 = 0
        var asked: Int64 = 1 << 20
        var previous: Int64 = 0
        while offset < part.length {
            let (total, planned) = (part.length, asked * 4)
            let (request, length) = try await chunks.request(
                offset: offset, length: asked, token: nil,
                likely: { (start: Int64) -> TusPatchMachine.Chunk? in
                    start < total ? TusPatchMachine.Chunk(offset: start, length: min(planned, total - start)) : nil
                })
            #expect(length >= min((asked + 1) / 2, previous) && length <= asked, "\(offset)+\(length) of \(asked)")
            previous = length
            guard case .file(let file, let from, let bytes, _) = request.body else {
                Issue.record("a chunk from the file: \(request.body)")
                return
            }
            #expect(file == path && from == offset && bytes == length)
            #expect(request.headers["Upload-Offset"] == String(offset))
            let checksum = try Self.expected(path, offset: offset, length: length)
            #expect(request.headers["Upload-Checksum"] == checksum)
            offset += length
            asked = min(asked * 4, part.length - offset)
        }
        #expect(offset == part.length)
    }

    func sha1Header(_ path: String, offset: Int64, length: Int64) throws -> String {
        try TusUploader.checksumHeader("sha1", path: path, offset: offset, length: length)
    }
}
