import FileModel

/// Cuts a folder's entries, given in name order, into pages of at most `size` after the name `cursor`: how a
/// whole listing is paged, on the front door (a folder listed whole) and on a server that answered a page request
/// with the whole folder. A full page goes out once the next entry shows there is more, so the last page is the
/// one without a cursor.
struct PageCutter {
    let size: Int
    let cursor: String?
    private var page: [RemoteEntry] = []

    init(size: Int, after cursor: String?) {
        self.size = max(1, size)
        self.cursor = cursor
    }

    /// Takes the next entry; the page it completed, if it did.
    mutating func add(_ entry: RemoteEntry) -> ListingPage? {
        if let cursor, !cursor.utf8.lexicographicallyPrecedes(entry.name.utf8) { return nil }
        var full: ListingPage?
        if page.count == size {
            full = ListingPage(entries: page, cursor: page.last?.name)
            page = []
        }
        page.append(entry)
        return full
    }

    /// The last page, once every entry was added (an empty first page for an empty folder).
    func last() -> ListingPage? {
        !page.isEmpty || cursor == nil ? ListingPage(entries: page, cursor: nil) : nil
    }

    /// Every page of `entries` (in name order).
    static func pages(of entries: [RemoteEntry], size: Int, after cursor: String?) -> [ListingPage] {
        var cutter = PageCutter(size: size, after: cursor)
        var pages = entries.compactMap { cutter.add($0) }
        if let last = cutter.last() { pages.append(last) }
        return pages
    }
}
