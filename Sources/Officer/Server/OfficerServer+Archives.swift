import FileModel
import Foundation
import HTTP
import Preview
import Transfer

extension OfficerServer {
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
}
