import FileModel
import Foundation
import Transfer

extension OfficerServer {
    /// Keeps the cached listing of `folder`, if there is one, true after a change this front door made (so
    /// `--offline ls` after a `queue run` shows what the server now holds, and a file just uploaded can be
    /// queued for removal while offline). A listing never cached stays uncached: nothing is invented.
    func amendCachedListing(of folder: RemotePath, _ change: (inout [FileEntry]) -> Void) {
        guard let cache = try? usableCache(), let key = try? cacheKey(folder, kind: CacheKey.Kind.listing),
            let entry = try? cache.entry(for: key), let data = entry.contents(),
            var listing = try? JSONDecoder().decode(DirectoryListing.self, from: data)
        else { return }
        change(&listing.entries)
        // The server's order: folders first, then by name.
        listing.entries.sort { ($0.isDirectory ? 0 : 1, $0.name) < ($1.isDirectory ? 0 : 1, $1.name) }
        guard let updated = try? JSONEncoder().encode(listing) else { return }
        do {
            try cache.store(updated, for: key, version: "listing")
        } catch {
            configuration.http.log?("cache: listing not updated: \(error)")
        }
    }

    /// `entry` is now at `path`: its folder's cached listing shows it, and, whether or not that listing was ever
    /// cached, the entry itself is kept as this client's last write there (a file just uploaded can be queued for
    /// removal offline).
    func noteAdded(_ entry: FileEntry, at path: RemotePath) {
        var placed = entry
        placed.name = path.name
        placed.path = path.path
        amendCachedListing(of: path.parent) { entries in
            entries.removeAll { $0.name == path.name }
            entries.append(placed)
        }
        if let cache = try? usableCache(), let key = try? cacheKey(path, kind: CacheKey.Kind.written),
            let data = try? JSONEncoder().encode(placed)
        {
            _ = try? cache.store(data, for: key, version: "written")
        }
    }

    /// What this client itself last wrote at `path` (``noteAdded(_:at:)``), nil when nothing.
    func lastWritten(_ path: RemotePath) -> FileEntry? {
        guard let cache = try? usableCache(), let key = try? cacheKey(path, kind: CacheKey.Kind.written),
            let data = (try? cache.entry(for: key))??.contents()
        else { return nil }
        return try? JSONDecoder().decode(FileEntry.self, from: data)
    }

    /// Nothing is at `path` any more (nor below it).
    func noteRemoved(_ path: RemotePath) {
        amendCachedListing(of: path.parent) { entries in entries.removeAll { $0.name == path.name } }
        guard let cache = try? usableCache() else { return }
        // What was kept of it goes too: offline, a file this tool removed or moved away is not there, as `ls` says.
        for kind in [
            CacheKey.Kind.listing, CacheKey.Kind.body, CacheKey.Kind.facts, CacheKey.Kind.thumbnail,
            CacheKey.Kind.written,
        ] {
            if let key = try? cacheKey(path, kind: kind) { _ = try? cache.remove(key) }
        }
    }

    /// A sync changed `relative` below `base`: the cached listings it touched are dropped (a sync's uploads go
    /// through its own side, whose entries it does not keep; dropped, a listing is asked again, never shown stale).
    func forgetCachedListings(after action: SyncAction, below base: RemotePath) {
        guard action.kind != .download, let cache = try? usableCache() else { return }
        var path = base
        for component in action.path.split(separator: "/") {
            guard let next = try? path.appending(String(component)) else { return }
            path = next
        }
        for folder in [path.parent] + (action.kind == .delete || action.kind == .makeDirectory ? [path] : []) {
            if let key = try? cacheKey(folder, kind: CacheKey.Kind.listing) { _ = try? cache.remove(key) }
        }
    }

    /// An upload to an Officer target landed: its folder's cached listing gains the file.
    func noteUploaded(_ result: UploadResult, to target: UploadTarget, localMtime: Double) {
        let values = Dictionary(target.metadata.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        guard let root = values["root"], let folder = values["path"], let name = values["filename"],
            let path = try? RemotePath(root: root, path: folder).appending(name)
        else { return }
        noteAdded(
            FileEntry(
                name: name, path: path.path, type: .file, size: result.bytes,
                mtime: result.storedModificationTime ?? localMtime), at: path)
    }
}
