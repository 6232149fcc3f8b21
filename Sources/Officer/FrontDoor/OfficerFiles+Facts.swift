import FileModel
import Foundation
import HTTP
import Preview
import Transfer

extension OfficerFiles {
    /// What local files are and how the viewer would show them (type, viewer, actions, image, text and PDF
    /// facts), read on every core at once; results in the order of `paths`.
    public func facts(ofLocalFiles paths: [String]) async -> [Result<FileFacts, any Error>] {
        await ParallelRunner.map(paths, width: ProcessInfo.processInfo.activeProcessorCount) { path in
            Result { try FileFacts.local(path) }
        }
    }

    /// What an Officer file is and how the viewer would show it: from the listing and its first 64 KiB (one
    /// Range request; kept in the cache for the version the listing names, so an unchanged file is not fetched
    /// again). Offline, from the cache or ``OfficerFilesError/notCachedOffline(_:)``.
    public func facts(of path: RemotePath) async throws -> FileFacts {
        let cache = try usableCache()
        let key = try cacheKey(path, kind: CacheKey.Kind.preview)
        if isOffline {
            guard let entry = try cache?.entry(for: key), let bytes = entry.contents() else {
                throw OfficerFilesError.notCachedOffline(path)
            }
            return try FileFacts(
                prefix: bytes, name: path.name, path: path.description, size: Int64(entry.metadata["size"] ?? "") ?? 0,
                modificationTime: Double(entry.metadata["mtime"] ?? "") ?? 0, mode: entry.metadata["mode"].flatMap { Int($0) })
        }
        let client = try client
        let entry = try await client.stat(path)
        guard !entry.isDirectory else { throw OfficerFilesError.isAFolder(path) }
        // The stat names the version, so an unchanged file's first bytes come from the cache.
        let version = CacheKey.version(size: entry.size, modificationTime: Int64(entry.mtime * 1000))
        let prefix: Data
        if let cached = try cache?.data(for: key, version: version) {
            prefix = cached
        } else if entry.size == 0 {
            // An empty file has no first byte to ask a range for (a server answers 416).
            prefix = Data()
        } else {
            var request = HTTPRequest(
                url: client.rawURL(for: path), sink: .memory(limit: FileTypeDetector.prefixLength + 1024), credential: client.credential)
            request.headers.add("Range", "bytes=0-\(FileTypeDetector.prefixLength - 1)")
            prefix = try await client.send(request, subject: path.description).body
            var metadata = ["size": String(entry.size), "mtime": String(entry.mtime)]
            if let mode = entry.mode { metadata["mode"] = String(mode) }
            _ = try? cache?.store(prefix, for: key, version: version, metadata: metadata)
        }
        return try FileFacts(
            prefix: prefix, name: path.name, path: path.description, size: entry.size, modificationTime: entry.mtime, mode: entry.mode)
    }
}
