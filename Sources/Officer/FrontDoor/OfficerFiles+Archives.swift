import FileModel
import Foundation
import HTTP
import Preview
import Transfer

extension OfficerFiles {
    /// Every member of an archive (any format libarchive reads) with totals and a safety report (path
    /// traversal, absolute paths, links out, bombs, encryption), read where it is: a remote zip by its end (the
    /// central directory) in Range requests and nothing else, other formats streamed from the start without a
    /// copy on disk; a cached copy the server still reports current (offline: any copy) is read instead.
    package func inspectArchive(_ location: Location) async throws -> ArchiveInspection {
        let bytes = try await remote(for: location).archiveBytes(location)
        return try await Self.onOwnThread(cancelling: bytes.ranged) {
            try bytes.inspect(name: location.description)
        }
    }

    /// Streams one member of an archive to `write` (called on a thread of its own), refusing members larger
    /// than `limit` bytes and fetching only that member's bytes and a zip's directory;
    /// ``ArchiveMemberNotFound`` when the archive has no such member.
    package func readArchiveMember(
        _ member: String, of location: Location, limit: Int64 = 1 << 30,
        to write: @escaping @Sendable (UnsafeRawBufferPointer) -> Void
    ) async throws {
        let bytes = try await remote(for: location).archiveBytes(location)
        let name = location.description
        try await Self.onOwnThread(cancelling: bytes.ranged) {
            let found = try bytes.read(member: member, name: name, limit: limit, write)
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
    func archiveBytes(_ path: RemotePath) async throws -> ArchiveBytes {
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
            let results = try await ParallelRunner.map([0], width: 1) { _ in Result { try body() } }
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
