/// One page of a folder's entries (``Location``-wide paging: an Officer folder, an S3 prefix, a local folder),
/// in name order (byte order).
public struct ListingPage: Sendable, Equatable {
    /// The entries of this page.
    public var entries: [RemoteEntry]
    /// Where the next page starts: pass it back as `after` to continue there, now or in a later run (it is the
    /// last name of this page, so it stays valid while entries come and go). Nil on the last page.
    public var cursor: String?

    /// A page.
    package init(entries: [RemoteEntry], cursor: String?) {
        self.entries = entries
        self.cursor = cursor
    }
}
