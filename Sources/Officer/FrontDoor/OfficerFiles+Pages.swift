import FileModel

extension OfficerFiles {
    /// One folder's entries as pages of at most `size`, in name order, starting after the name `cursor` (a
    /// ``FileModel/ListingPage/cursor`` an app kept): what a folder screen shows as it scrolls. On S3 the pages come as the
    /// store lists them (the first before the last is fetched); the Officer API answers a folder whole, which is
    /// then cut into pages here (kept in the cache as ``list(_:)`` keeps it). Breaking out of the loop stops the
    /// listing.
    public func pages(of folder: Location, size: Int = 200, after cursor: String? = nil)
        -> AsyncThrowingStream<ListingPage, any Error>
    {
        let size = max(1, size)
        let entries: AsyncThrowingStream<RemoteEntry, any Error>
        do {
            entries = try remote(for: folder).streamedListing(folder)
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
}
