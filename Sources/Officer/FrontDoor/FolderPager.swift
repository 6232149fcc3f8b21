import FileModel

/// One ``OfficerFiles/pages(of:size:after:)`` call on a remote that answers a folder whole or serves pages
/// itself, page by page as its reader asks (a screen takes one page and leaves, so nothing is fetched ahead): a
/// served page is one request; a folder answered whole is listed once for a cursor's life (``ListingMemo``) and
/// its pages cut here.
final class FolderPager: Sendable {
    private struct State {
        var after: String?
        var finished = false
        /// Pages cut from a whole listing, not yet read.
        var cut: [ListingPage] = []
    }

    private let remote: any Remote
    private let folder: Location
    private let size: Int
    private let memo: ListingMemo
    private let state: LockedValue<State>

    init(remote: any Remote, folder: Location, size: Int, after cursor: String?, memo: ListingMemo) {
        self.remote = remote
        self.folder = folder
        self.size = max(1, size)
        self.memo = memo
        state = LockedValue(State(after: cursor))
    }

    /// The next page; nil after the last.
    func next() async throws -> ListingPage? {
        let (after, waiting) = state.withLock { state -> (String?, ListingPage?) in
            guard !state.finished else { return (nil, nil) }
            guard state.cut.isEmpty else {
                let page = state.cut.removeFirst()
                state.finished = state.cut.isEmpty
                return (nil, page)
            }
            return (state.after, nil)
        }
        if let waiting { return waiting }
        if state.withLock({ $0.finished }) { return nil }
        if let page = try await remote.listingPage(folder, size: size, after: after) {
            state.withLock { state in
                state.after = page.cursor
                state.finished = page.cursor == nil
            }
            // Nothing after a cursor is the end, as a cut listing ends (no empty last page).
            return page.entries.isEmpty && after != nil ? nil : page
        }
        var pages = PageCutter.pages(of: try await wholeListing(continuing: after != nil), size: size, after: after)
        let first = pages.isEmpty ? nil : pages.removeFirst()
        state.withLock { state in
            state.cut = pages
            state.finished = pages.isEmpty
        }
        return first
    }

    /// The folder in name order: the listing kept for paging when `continuing` a cursor and one is kept, else
    /// listed now and kept.
    private func wholeListing(continuing: Bool) async throws -> [RemoteEntry] {
        if continuing, let kept = memo.entries(of: folder) { return kept }
        let listed = try await remote.list(folder).entries.sorted {
            $0.name.utf8.lexicographicallyPrecedes($1.name.utf8)
        }
        memo.keep(listed, of: folder)
        return listed
    }
}
