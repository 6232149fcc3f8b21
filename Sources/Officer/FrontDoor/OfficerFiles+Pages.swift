import FileModel

extension OfficerFiles {
    /// One folder's entries as pages of at most `size`, in name order, starting after the name `cursor` (a
    /// ``FileModel/ListingPage/cursor`` an app kept): what a folder screen shows as it scrolls. On S3 the pages
    /// come as the store lists them (the first before the last is fetched). A remote that answers a folder whole
    /// (an Officer server, this machine) is listed once for a cursor's life: the first page lists it (kept in the
    /// cache as ``list(_:)`` keeps it), and a later page asked within two minutes is cut from that listing, so
    /// scrolling through 1,000 entries in pages of 100 costs one listing, not ten; an Officer server that offers
    /// paging (the proposed `limit` and `after` of `ls`) is asked for one page at a time instead. Breaking out of
    /// the loop stops the listing.
    public func pages(of folder: Location, size: Int = 200, after cursor: String? = nil) -> ReportedStream<ListingPage>
    {
        reportedStream(folder, pageStream(of: folder, size: size, after: cursor))
    }

    /// The pages, failing with any error reported.
    private func pageStream(of folder: Location, size: Int, after cursor: String?)
        -> AsyncThrowingStream<ListingPage, any Error>
    {
        let remote: any Remote
        do { remote = try self.remote(for: folder) } catch { return failing(error, folder) }
        guard remote.listsWhole else {
            // Made in the front door's plug-in scope: its producer task inherits it.
            let pages = PluginScope.$overrides.withValue(configuration.plugins.scope) {
                streamedPages(of: folder, on: remote, size, cursor)
            }
            return pages
        }
        let pager = FolderPager(remote: remote, folder: folder, size: size, after: cursor, memo: listingMemo)
        // Pulled, not pushed: a page is fetched when the reader asks for it, so one taken costs one request.
        let (terms, subject, plugins) = (locationNames, folder.description, configuration.plugins.scope)
        return AsyncThrowingStream {
            do {
                return try await PluginScope.$overrides.withValue(plugins) { try await pager.next() }
            } catch {
                throw OfficerFilesError(error, terms: terms, about: subject)
            }
        }
    }

    /// The pages of a remote that lists in pages of its own (S3): its entries as they come, cut into pages.
    private func streamedPages(of folder: Location, on remote: any Remote, _ size: Int, _ cursor: String?)
        -> AsyncThrowingStream<ListingPage, any Error>
    {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    var cutter = PageCutter(size: size, after: cursor)
                    for try await entry in remote.streamedListing(folder) {
                        if let page = cutter.add(entry) { continuation.yield(page) }
                    }
                    if let last = cutter.last() { continuation.yield(last) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
