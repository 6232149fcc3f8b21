import FileModel
import Foundation
import HTTP
import Platform
import Transfer

/// What reading a file to a descriptor did.
package struct ReadOutcome: Sendable, Equatable {
    /// Bytes written.
    package var bytes: Int64
    /// True when they came from the cache (offline, or the server answered 304 to the cached ETag).
    package var fromCache: Bool
    /// What the bytes matched: the server's SHA-256, or their length alone on a server without checksums.
    package var checkedBy: ContentCheck = .size
}

/// Why bytes could not be written where the caller asked (the other end of a pipe closed, a full disk).
package struct OutputError: Error, Equatable, Sendable, CustomStringConvertible, CategorizedError {
    /// What the output is, as the caller named it (`<stdout>`, a path).
    package var name: String
    /// The system's message.
    package var message: String
    /// One line naming the output.
    package var description: String { "\(name): \(message)" }
    /// A local-file problem.
    package var category: ErrorCategory { .localFile }
}

extension OfficerServer {
    /// Writes an Officer file's bytes to `fileDescriptor` (stdout for a `cat`), resuming transparently after
    /// network failures. Where the server offers checksums, its SHA-256 is asked while the bytes stream and the
    /// bytes written must hash to it: bytes damaged on the way end the read with
    /// ``DownloadError/damagedStream(url:output:expected:actual:)`` (they cannot be taken back) and are never
    /// cached. Cached: a second read of an unchanged file asks the server with `If-None-Match` and writes the cached
    /// copy on 304; offline the cached copy is written without asking. A file up to an eighth of the cache limit is
    /// cached on the way, admitted through the same check. `outputName` names the descriptor in errors.
    @discardableResult
    package func read(
        _ path: RemotePath, to fileDescriptor: Int32, outputName: String = "<output>", bandwidthLimit: Int64? = nil
    ) async throws -> ReadOutcome {
        let client = try client
        let cache = try usableCache()
        let key = try cacheKey(path, kind: CacheKey.Kind.body)
        var cached: (entry: CacheEntry, handle: FileHandle)?
        var pinned = false
        if let cache { (cached, pinned) = try checkedCacheEntry(cache, key: key, path: path) }
        if isOffline {
            guard let (entry, handle) = cached else { throw FrontDoorRefusal.notCachedOffline(path) }
            try Self.copy(handle, entry, to: fileDescriptor, outputName: outputName)
            return ReadOutcome(bytes: entry.size, fromCache: true, checkedBy: entry.checkedBy)
        }
        // The server hashes the whole file before it answers: asked while the bytes stream.
        let asked = Task { try await client.offeredChecksum(of: path) }
        defer { asked.cancel() }
        let staged = try? cache?.stage()
        let digest = RunningDigest()
        let url = client.rawURL(for: path)
        let outcome = try await Self.naming(path) {
            try await SegmentedDownloader(http: http, journal: nil).stream(
                from: url, credential: client.credential, to: fileDescriptor,
                copy: staged.map { ($0.fileDescriptor, cache!.automaticEntryLimit) }, ifNoneMatch: cached?.entry.etag,
                bandwidthLimit: bandwidthLimit, requireLength: true, digest: digest)
        }
        if outcome.notModified, let (entry, handle) = cached {
            configuration.http.log?("cache: \(path) unchanged on the server (304): printing the cached copy")
            try Self.copy(handle, entry, to: fileDescriptor, outputName: outputName)
            return ReadOutcome(bytes: entry.size, fromCache: true, checkedBy: entry.checkedBy)
        }
        let expected = try await Self.naming(path) {
            try await client.checkStream(path, url: url, digest: digest, asked: asked, outputName: outputName)
        }
        // The copy is kept only whole, with the server's version, through the same check.
        if let cache, let staged, let etag = outcome.etag,
            let info = FileStatus.of(descriptor: staged.fileDescriptor), Int64(info.st_size) == outcome.written
        {
            do {
                // The server's time goes with the copy, as a download's does: what an offline `get` gives the file
                // (the checksum's answer has it to the millisecond; Last-Modified in seconds otherwise).
                let mtime = try? await asked.value?.mtime ?? outcome.lastModified.flatMap(HTTPDate.parse)
                try cache.commit(
                    staged, key: key, version: etag, pinned: pinned,
                    metadata: (mtime ?? nil).map { ["mtime": String($0)] } ?? [:], expected: expected)
            } catch {
                configuration.http.log?("cache: not stored: \(error)")
            }
        }
        return ReadOutcome(bytes: outcome.written, fromCache: false, checkedBy: expected?.check ?? .size)
    }

    /// A read the server answers "not found" is told by the path, not by the request's URL.
    private static func naming<T>(_ path: RemotePath, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch  where ErrorCategory.of(error) == .notFound {
            throw OfficerError.notFound(request: "read \(path)", message: "\(path): no such file or folder")
        }
    }

    /// The cached entry for `key`, opened and checked against its SHA-256 before any byte of it is used. A
    /// damaged one is dropped with a warning (offline: ``FrontDoorRefusal/cachedCopyDamaged(_:)``), and whether
    /// it was pinned, so the copy fetched again is pinned again.
    func checkedCacheEntry(
        _ cache: ContentCache, key: CacheKey, path: RemotePath
    ) throws -> (entry: (CacheEntry, FileHandle)?, pinned: Bool) {
        guard let entry = try cache.entry(for: key) else { return (nil, false) }
        switch cache.open(entry) {
        case .intact(let handle): return ((entry, handle), false)
        case .gone: return (nil, false)
        case .damaged:
            if isOffline { throw FrontDoorRefusal.cachedCopyDamaged(path) }
            warn(
                "the cached copy of \(path) was damaged (its bytes no longer match their SHA-256): dropped it and fetching the file again"
                    + (entry.pinned ? "; it stays pinned" : ""))
            return (nil, entry.pinned)
        }
    }

    private static func copy(_ handle: FileHandle, _ entry: CacheEntry, to fileDescriptor: Int32, outputName: String)
        throws
    {
        lseek(handle.fileDescriptor, 0, SEEK_SET)
        do {
            try DescriptorCopy.copy(from: handle.fileDescriptor, to: fileDescriptor)
        } catch {
            if error.reading { throw CacheError.io(path: entry.path, message: error.message) }
            throw OutputError(name: outputName, message: error.message)
        }
    }
}
