import FileModel

/// The recursive listing of a folder made from the seed's `ls`, folder by folder, in the order of the proposed
/// `tree` endpoint (a folder, then what is inside it, siblings by their names' bytes), for a server without
/// `tree`. One folder's listing per level is held at a time, so memory follows the depth, not the size.
///
/// Paged like `tree` (``page(after:limit:)``): a cursor is the last path returned; a later page lists only the
/// folders on the way to the cursor again, skipping every subtree that lies wholly before it.
actor ListingTree {
    private let client: OfficerClient
    private let base: RemotePath
    private var stack: [(entries: [FileEntry], index: Int)] = []
    private var started = false
    private var after: SyncPath?

    /// A walk of everything below `base` (not `base` itself).
    init(client: OfficerClient, base: RemotePath) {
        self.client = client
        self.base = base
    }

    /// The next entry in tree order, nil at the end.
    func next() async throws(OfficerError) -> FileEntry? {
        if !started {
            started = true
            stack = [(try await sortedListing(base), 0)]
        }
        while let top = stack.last {
            guard top.index < top.entries.count else {
                stack.removeLast()
                continue
            }
            let entry = top.entries[top.index]
            stack[stack.count - 1].index += 1
            let key = OfficerClient.treeOrderKey(entry.path)
            let isAfter = after.map { $0 < key } ?? true
            if entry.isDirectory {
                // A folder wholly before the cursor (the cursor neither it nor inside it) is skipped with all it holds.
                if !isAfter, let after, !after.isInside(key) { continue }
                let folder: RemotePath
                do { folder = try RemotePath(root: base.root, path: entry.path) } catch { throw .invalidPath(error) }
                stack.append((try await sortedListing(folder), 0))
            }
            if isAfter { return entry }
        }
        return nil
    }

    /// The page of at most `limit` entries after `cursor` (a path a previous page ended with), as `tree` answers.
    func page(after cursor: String?, limit: Int) async throws(OfficerError) -> TreePage {
        after = cursor.map(OfficerClient.treeOrderKey)
        var entries: [FileEntry] = []
        while entries.count < max(1, limit), let entry = try await next() { entries.append(entry) }
        let more = entries.count >= max(1, limit) ? try await next() != nil : false
        return TreePage(root: base.root, path: base.path, entries: entries, nextCursor: more ? entries.last?.path : nil)
    }

    private nonisolated func sortedListing(_ folder: RemotePath) async throws(OfficerError) -> [FileEntry] {
        let entries = try await client.list(folder).entries
        return entries.sorted { OfficerClient.treeOrderKey($0.path) < OfficerClient.treeOrderKey($1.path) }
    }
}
