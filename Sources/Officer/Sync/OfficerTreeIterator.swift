import FileModel
import Foundation
import HTTP
import Journal
import Transfer

/// Reads the tree a page at a time, fetching the next page while the current one is consumed: at most two
/// pages in memory whatever the size of the tree.
actor OfficerTreeIterator: SyncRemoteIterator {
    private let client: OfficerClient
    private let base: RemotePath
    private let pageSize: Int
    private var page: [FileEntry] = []
    private var index = 0
    private var nextPage: Task<TreePage, any Error>?
    private var finished = false
    private let missingRootIsEmpty: Bool
    private var first = true

    /// The journal, when it remembers times for this root of the server (nil: no entry is looked up).
    private let journal: TransferJournal?

    init(
        client: OfficerClient, base: RemotePath, pageSize: Int, missingRootIsEmpty: Bool,
        journal: TransferJournal? = nil
    ) {
        nextPage = Self.fetch(client: client, base: base, pageSize: pageSize, cursor: nil)
        self.client = client
        self.base = base
        self.pageSize = pageSize
        self.missingRootIsEmpty = missingRootIsEmpty
        // Only a server that kept its own times has any remembered: without one, no entry is looked up.
        self.journal =
            (try? journal?.hasObjectTimes(endpoint: client.server, bucket: base.root)) == true ? journal : nil
    }

    /// The time that stands for an entry: the one sent with it, when the server kept its own and the journal
    /// remembers the pair for this size and server time; else the server's.
    private func time(of entry: FileEntry) -> Double {
        guard !entry.isDirectory, let journal,
            let known = try? journal.objectTime(endpoint: client.server, bucket: base.root, key: entry.path),
            known.size == entry.size, known.etag == OfficerServerRemote.storedVersion(mtime: entry.mtime)
        else { return entry.mtime }
        return known.mtime
    }

    deinit { nextPage?.cancel() }

    private static func fetch(client: OfficerClient, base: RemotePath, pageSize: Int, cursor: String?) -> Task<
        TreePage, any Error
    > {
        Task { try await client.tree(base, cursor: cursor, limit: pageSize) }
    }

    func next() async throws -> Result<SyncItem, SyncNameError>? {
        while index >= page.count {
            guard !finished, let pending = nextPage else { return nil }
            let fetched: TreePage
            do {
                fetched = try await pending.value
            } catch OfficerError.notFound where first && missingRootIsEmpty {
                finished = true
                return nil
            }
            first = false
            page = fetched.entries
            index = 0
            if let cursor = fetched.nextCursor {
                nextPage = Self.fetch(client: client, base: base, pageSize: pageSize, cursor: cursor)
            } else {
                nextPage = nil
                finished = true
            }
        }
        let entry = page[index]
        index += 1
        // The server's links are its own business (it never follows one out of its root); a sync leaves them alone.
        if entry.type == .symlink { return try await next() }
        return SyncPath.relative(entryPath: entry.path, name: entry.name, below: base.path).map { path in
            SyncItem(
                path: path, kind: entry.isDirectory ? .directory : .file, size: entry.isDirectory ? 0 : entry.size,
                mtime: time(of: entry))
        }
    }
}
