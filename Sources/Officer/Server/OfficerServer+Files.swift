import FileModel
import Foundation
import HTTP
import Preview
import Transfer

extension OfficerServer {
    /// What the server says of itself (and whether it is an Officer server at all).
    package func serverInfo() async throws -> PluginsResponse { try await client.serverInfo() }

    /// A folder's entries. Each listing is kept in the cache; offline, the last one seen is the answer (see
    /// ``cachedListing(_:)`` for when it was made), or ``FrontDoorRefusal/notCachedOffline(_:)``.
    package func list(_ path: RemotePath) async throws -> DirectoryListing {
        let cache = try usableCache()
        if isOffline {
            guard let cached = try cachedListing(path) else { throw FrontDoorRefusal.notCachedOffline(path) }
            return cached.listing
        }
        let listing = try await client.list(path)
        if let cache, let data = try? JSONEncoder().encode(listing) {
            do {
                try cache.store(data, for: try cacheKey(path, kind: CacheKey.Kind.listing), version: "listing")
            } catch {
                configuration.http.log?("cache: listing not stored: \(error)")
            }
        }
        return listing
    }

    /// True when the bytes of the file at `path` are kept in the cache (`--offline` reads them).
    package func hasCachedCopy(_ path: RemotePath) -> Bool {
        guard let key = try? cacheKey(path, kind: CacheKey.Kind.body) else { return false }
        return (try? usableCache()?.entry(for: key)) != nil
    }

    /// The last listing of `path` kept in the cache and when it was made (seconds since 1970), if any.
    package func cachedListing(_ path: RemotePath) throws -> (listing: DirectoryListing, listedAt: Double)? {
        guard let entry = try usableCache()?.entry(for: try cacheKey(path, kind: CacheKey.Kind.listing)),
            let data = entry.contents(),
            let listing = try? JSONDecoder().decode(DirectoryListing.self, from: data)
        else { return nil }
        return (listing, entry.created)
    }

    /// One entry.
    package func stat(_ path: RemotePath) async throws -> FileEntry { try await client.stat(path) }

    /// One entry, or nil when nothing is there.
    package func statIfExists(_ path: RemotePath) async throws -> FileEntry? { try await client.statIfExists(path) }

    /// Moves (or renames) within one root; an existing target is a conflict unless `overwrite`.
    @discardableResult
    package func move(_ source: RemotePath, to destination: RemotePath, overwrite: Bool = false) async throws
        -> FileEntry
    {
        try Location.requireStorableNames(.officer(destination))
        let entry = try await client.move(source, to: destination, overwrite: overwrite)
        noteRemoved(source)
        noteAdded(entry, at: destination)
        return entry
    }

    /// Copies within one root (folders with everything in them); an existing target is a conflict unless `overwrite`.
    @discardableResult
    package func copy(_ source: RemotePath, to destination: RemotePath, overwrite: Bool = false) async throws
        -> FileEntry
    {
        try Location.requireStorableNames(.officer(destination))
        let entry = try await client.copy(source, to: destination, overwrite: overwrite)
        noteAdded(entry, at: destination)
        return entry
    }

    /// Entries below `folder` whose names contain `text`.
    package func search(_ text: String, in folder: RemotePath) async throws -> SearchResponse {
        try await client.search(text, in: folder)
    }

    /// Every entry below `path`, depth first, fetched in pages while the caller consumes them.
    package func walk(_ path: RemotePath) -> AsyncThrowingStream<FileEntry, any Error> {
        do {
            return try client.walk(path)
        } catch {
            return AsyncThrowingStream { $0.finish(throwing: error) }
        }
    }

    /// Makes a folder (`parents`: and the missing ones above it).
    @discardableResult
    package func makeFolder(_ path: RemotePath, parents: Bool = false) async throws -> FileEntry {
        try Location.requireStorableNames(.officer(path), all: parents)
        let entry = try await client.makeDirectory(path, parents: parents)
        noteAdded(entry, at: path)
        return entry
    }

    /// Removes a file, or a folder (`recursive` for one that is not empty); returns how many entries went.
    @discardableResult
    package func remove(_ path: RemotePath, recursive: Bool = false) async throws -> Int {
        let removed = try await client.remove(path, recursive: recursive)
        noteRemoved(path)
        return removed
    }
}
