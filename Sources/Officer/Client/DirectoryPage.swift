import FileModel

/// One answer of `GET ls` asked for a page (`limit`, `after`): a page of the folder in name order where the server
/// offers paging, else the whole folder (a server with only the seed's `ls` ignores both).
package struct DirectoryPage: Decodable, Sendable {
    /// The root listed.
    package var root: String
    /// The folder listed.
    package var path: String
    /// The page's entries (name order), or the whole folder's (the seed's order).
    package var entries: [FileEntry]
    /// The page size the server applied; nil when it answered the whole folder.
    package var limit: Int?
    /// The name to ask the next page after; nil on the last page.
    package var nextCursor: String?

    /// True when the server paged (it said the limit it applied).
    package var isPaged: Bool { limit != nil }
}
