import FileModel

extension OfficerFiles {
    /// One folder's entries as pages of at most `size`, in name order, starting after the name `cursor` (a
    /// ``FileModel/ListingPage/cursor`` an app kept): what a folder screen shows as it scrolls. On S3 the pages
    /// come as the store lists them (the first before the last is fetched). A remote that answers a folder whole
    /// (an Officer server, this machine) is listed once for a cursor's life: the first page lists it (kept in the
    /// cache as ``list(_:)`` keeps it), and a later page asked within two minutes is cut from that listing, so
    /// scrolling through 1,000 entries in pages of 100 costs one listing, not ten. Breaking out of the loop stops
    /// the listing.
    public func pages(of folder: Location, size: Int = 200, after cursor: String? = nil)
        -> AsyncThrowingStream<ListingPage, any Error>
    {
        let size = max(1, size)
        let entries: AsyncThrowingStream<RemoteEntry, any Error>
        do {
            let remote = try remote(for: folder)
            entries =
                remote.listsWhole
                ? wholeListing(of: folder, on: remote, continuing: cursor != nil)
                : remote.streamedListing(folder)
        } catch {
            return failing(error, folder)
        }
        let pages = AsyncThrowingStream<ListingPage, any Error> { continuation in
            let task = Task {
                do {
                    var page: [RemoteEntry] = []
                    for try await entry in entries {
                        if let cursor, !cursor.utf8.lexicographicallyPrecedes(entry.name.utf8) { continue }
                        // A full page goes out once the next entry shows there is more.
                        if page.count == size {
                            continuation.yield(ListingPage(entries: page, cursor: page.last?.name))
                            page = []
                        }
                        page.append(entry)
                    }
                    if !page.isEmpty || cursor == nil { continuation.yield(ListingPage(entries: page, cursor: nil)) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
        return reporting(folder, pages)
    }

    /// A folder a remote answers whole, in name order: the listing kept for paging when `continuing` a cursor
    /// and one is kept (``ListingMemo``), else listed now and kept.
    private func wholeListing(of folder: Location, on remote: any Remote, continuing: Bool)
        -> AsyncThrowingStream<RemoteEntry, any Error>
    {
        let memo = listingMemo
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    var entries = continuing ? memo.entries(of: folder) : nil
                    if entries == nil {
                        let listed = try await remote.list(folder).entries.sorted {
                            $0.name.utf8.lexicographicallyPrecedes($1.name.utf8)
                        }
                        memo.keep(listed, of: folder)
                        entries = listed
                    }
                    for entry in entries ?? [] { continuation.yield(entry) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
