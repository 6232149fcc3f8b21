import FileModel
import Foundation
import HTTP
import Preview
import Transfer

extension OfficerServer {
    /// What an Officer file is and how the viewer would show it, without downloading it: its first 64 KiB by a
    /// Range request, then only what the format keeps elsewhere (an image's header and EXIF — a HEIC's `meta`
    /// box may sit after its media data —, a PDF's trailer). The facts are kept in the cache for the version
    /// the listing names, so an unchanged file costs no second read; offline, they come from the cache or
    /// ``FrontDoorRefusal/notCachedOffline(_:)``.
    package func facts(of path: RemotePath) async throws -> FileFacts {
        let cache = try usableCache()
        let key = try cacheKey(path, kind: CacheKey.Kind.facts)
        if isOffline {
            if let data = try cache?.entry(for: key)?.contents(),
                let facts = try? JSONDecoder().decode(FileFacts.self, from: data)
            {
                return facts
            }
            // A pinned or downloaded copy tells them as well as the server would.
            guard let cache,
                case (let (entry, handle)?, _) = try checkedCacheEntry(
                    cache, key: try cacheKey(path, kind: CacheKey.Kind.body), path: path)
            else { throw FrontDoorRefusal.notCachedOffline(path) }
            return try withExtendedLifetime(handle) {
                try FileFacts.reading(
                    DescriptorByteSource(descriptor: handle.fileDescriptor, size: entry.size), name: path.name,
                    path: path.description,
                    modificationTime: entry.metadata["mtime"].flatMap(Double.init) ?? entry.created, mode: nil)
            }
        }
        let client = try client
        let entry = try await client.stat(path)
        guard !entry.isDirectory else { throw FrontDoorRefusal.isAFolder(path) }
        let version = CacheKey.version(size: entry.size, modificationTime: Int64(entry.mtime * 1000))
        if let data = try cache?.data(for: key, version: version),
            let facts = try? JSONDecoder().decode(FileFacts.self, from: data)
        {
            return facts
        }
        let facts: FileFacts
        if entry.size == 0 {
            // An empty file has no first byte to ask a range for (a server answers 416).
            facts = try FileFacts(
                prefix: Data(), name: path.name, path: path.description, size: 0, modificationTime: entry.mtime,
                mode: entry.mode)
        } else {
            let file = RangedFile(
                http: http, url: client.rawURL(for: path), credential: client.credential, size: entry.size, etag: nil)
            facts = try await BlockingWork.onOwnThread(cancelling: file) {
                try FileFacts.reading(
                    file, name: path.name, path: path.description, modificationTime: entry.mtime, mode: entry.mode)
            }
            let traffic = file.traffic
            configuration.http.log?("facts: \(path): \(traffic.bytes) bytes in \(traffic.requests) range request(s)")
        }
        if let data = try? JSONEncoder().encode(facts) { _ = try? cache?.store(data, for: key, version: version) }
        return facts
    }
}
