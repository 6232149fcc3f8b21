import FileModel
import Foundation
import HTTP
import Preview
import Transfer

extension OfficerFiles {
    /// Every member of a local archive (any format libarchive reads), with totals and a safety report (path
    /// traversal, absolute paths, links out, bombs, encryption).
    package func inspectArchive(_ local: String) throws -> ArchiveInspection {
        try Self.requireLocalFile(local)
        return try ArchiveInspection.inspect(local)
    }

    /// Streams one member of a local archive to `write`, refusing members larger than `limit` bytes;
    /// ``ArchiveMemberNotFound`` when the archive has no such member.
    package func readArchiveMember(
        _ member: String, of local: String, limit: Int64 = 1 << 30, to write: (UnsafeRawBufferPointer) -> Void
    ) throws {
        try Self.requireLocalFile(local)
        guard try ArchiveReader(path: local).read(member: member, limit: limit, write) else {
            throw ArchiveMemberNotFound(archive: local, member: member)
        }
    }

    /// Lists an Officer archive without downloading it: a zip's end (its central directory) is read by Range
    /// requests and nothing else; other formats stream from the start without a copy on disk. A copy in the
    /// cache that the server still reports current (or any copy, offline) is read instead. The safety report
    /// is the same as for a local archive.
    package func inspectArchive(_ path: RemotePath) async throws -> ArchiveInspection {
        try await Self.inspect(try await archiveBytes(path), name: path.description)
    }

    /// Streams one member of an Officer archive to `write` (called on a thread of its own), fetching only that
    /// member's bytes and the archive's directory for a zip; ``ArchiveMemberNotFound`` when there is none.
    package func readArchiveMember(
        _ member: String, of path: RemotePath, limit: Int64 = 1 << 30,
        to write: @escaping @Sendable (UnsafeRawBufferPointer) -> Void
    ) async throws {
        try await Self.read(
            member: member, of: try await archiveBytes(path), name: path.description, limit: limit, write)
    }

    /// Lists the archive at any http(s) URL that serves ranges, as ``inspectArchive(_:)-(RemotePath)`` does for
    /// an Officer path (never with the token, which belongs to the Officer server).
    package func inspectArchive(url: String) async throws -> ArchiveInspection {
        try await Self.inspect(.ranged(try await rangedFile(url: url)), name: url)
    }

    /// Streams one member of the archive at an http(s) URL that serves ranges to `write`.
    package func readArchiveMember(
        _ member: String, ofURL url: String, limit: Int64 = 1 << 30,
        to write: @escaping @Sendable (UnsafeRawBufferPointer) -> Void
    ) async throws {
        try await Self.read(member: member, of: .ranged(try await rangedFile(url: url)), name: url, limit: limit, write)
    }

    /// Where a remote archive's bytes are read from: a local copy (the cache's), or the server by ranges.
    private enum ArchiveBytes: Sendable {
        case local(String)
        case ranged(RangedFile)

        var ranged: RangedFile? { if case .ranged(let file) = self { file } else { nil } }
    }

    private static func inspect(_ bytes: ArchiveBytes, name: String) async throws -> ArchiveInspection {
        try await onOwnThread(cancelling: bytes.ranged) {
            switch bytes {
            case .local(let path): try ArchiveInspection.inspect(path)
            case .ranged(let file): try ArchiveReader.inspect(source: file, name: name)
            }
        }
    }

    private static func read(
        member: String, of bytes: ArchiveBytes, name: String, limit: Int64,
        _ write: @escaping @Sendable (UnsafeRawBufferPointer) -> Void
    ) async throws {
        try await onOwnThread(cancelling: bytes.ranged) {
            let found =
                switch bytes {
                case .local(let path): try ArchiveReader(path: path).read(member: member, limit: limit, write)
                case .ranged(let file):
                    try ArchiveReader.read(member: member, from: file, name: name, limit: limit, write)
                }
            guard found else { throw ArchiveMemberNotFound(archive: name, member: member) }
        }
    }

    /// A plain URL read by ranges: its length and validator from a HEAD; a server that does not say it serves
    /// ranges is refused before any body is fetched.
    func rangedFile(url: String) async throws -> RangedFile {
        if isOffline { throw FrontDoorRefusal.needsNetwork(url) }
        var request = HTTPRequest(method: "HEAD", url: url, sink: .memory(limit: 0), credential: nil)
        request.redirects = .anyOrigin
        let response = try await http.send(request)
        guard response.isSuccess else {
            throw DownloadError.server(url: url, status: response.status, message: response.errorMessage)
        }
        guard let length = response.headers["Content-Length"].flatMap({ Int64($0) }),
            await SegmentedDownloader(http: http, journal: nil).servesRanges(
                url: response.effectiveURL, credential: nil, acceptRanges: response.headers["Accept-Ranges"])
        else {
            throw DownloadError.unexpectedAnswer(
                url: url, reason: "the server does not serve byte ranges; download the file first")
        }
        let etag = response.headers["ETag"].flatMap { $0.hasPrefix("\"") ? $0 : nil }
        return RangedFile(http: http, url: response.effectiveURL, credential: nil, size: length, etag: etag)
    }

    /// Where an Officer archive's bytes come from: the cache's copy when it is current (offline: any copy), else
    /// the server by ranges. One HEAD gives the ETag for both the cache check and the ranges' validator.
    private func archiveBytes(_ path: RemotePath) async throws -> ArchiveBytes {
        guard !path.isRoot else { throw FrontDoorRefusal.isAFolder(path) }
        let cached = try usableCache()?.entry(for: try cacheKey(path, kind: CacheKey.Kind.body))
        if isOffline {
            guard let cached else { throw FrontDoorRefusal.notCachedOffline(path) }
            return .local(cached.path)
        }
        // A cached copy is checked by the ETag a HEAD reports; that ETag then validates the ranges too.
        var checked: (etag: String?, done: Bool) = (nil, false)
        if let cached, let version = cached.etag {
            let etag = try await currentETag(of: path)
            if version == etag { return .local(cached.path) }
            checked = (etag, true)
        }
        let client = try client
        // The listed size: the length a HEAD reports is not required of every server.
        let entry = try await client.stat(path)
        guard !entry.isDirectory else { throw FrontDoorRefusal.isAFolder(path) }
        let etag = checked.done ? checked.etag : try await currentETag(of: path)
        return .ranged(
            RangedFile(
                http: http, url: client.rawURL(for: path), credential: client.credential, size: entry.size, etag: etag))
    }

    /// Runs blocking work (libarchive, libvips reading through a ``RangedFile``) on a thread of its own, so
    /// the requests it waits for never starve Swift's shared threads; cancelling the task fails its next read.
    static func onOwnThread<T: Sendable>(cancelling file: RangedFile?, _ body: @escaping @Sendable () throws -> T)
        async throws -> T
    {
        try await withTaskCancellationHandler {
            let results = await ParallelRunner.map([0], width: 1) { _ in Result { try body() } }
            try Task.checkCancellation()
            return try results[0].get()
        } onCancel: {
            file?.cancel()
        }
    }

    /// A local path that must be an existing file: ``LocalFileError`` naming it otherwise.
    package static func requireLocalFile(_ local: String) throws(LocalFileError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: local, isDirectory: &isDirectory) else {
            throw LocalFileError(path: local, problem: .missing)
        }
        if isDirectory.boolValue { throw LocalFileError(path: local, problem: .isAFolder) }
    }

    /// The folder rule every operation on a local folder shares: it exists and is a folder.
    /// The one rule for a folder the user names for output (`thumb -o`, `image prepare`, several targets of an
    /// action): created, with its parents, when missing; a file there is refused.
    package static func makeOutputFolder(_ local: String) throws(LocalFileError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: local, isDirectory: &isDirectory) {
            if !isDirectory.boolValue { throw LocalFileError(path: local, problem: .notAFolder) }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: local, withIntermediateDirectories: true)
        } catch {
            throw LocalFileError(path: local, problem: .unwritable(String(cString: strerror(errno))))
        }
    }

    /// Refuses a local path that is not an existing folder (what an extraction writes into).
    package static func requireLocalFolder(_ local: String) throws(LocalFileError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: local, isDirectory: &isDirectory) else {
            throw LocalFileError(path: local, problem: .missing)
        }
        if !isDirectory.boolValue { throw LocalFileError(path: local, problem: .notAFolder) }
    }
}

extension RangedFile: ByteSource {}

/// An archive read for a member it does not hold.
package struct ArchiveMemberNotFound: Error, Equatable, Sendable, CustomStringConvertible, CategorizedError {
    /// The archive.
    package var archive: String
    /// The member's path as asked.
    package var member: String
    /// One line naming both.
    package var description: String { "\(archive): no member \(member)" }
    /// Nothing of that name.
    package var category: ErrorCategory { .notFound }
}
