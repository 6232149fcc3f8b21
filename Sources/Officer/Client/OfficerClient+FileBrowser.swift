import FileModel
import Foundation
import HTTP
import Transfer

extension OfficerClient {
    private static let base = "/api/file-browser/"

    private func query(_ path: RemotePath, _ extra: [(String, String)] = []) -> [(String, String)] {
        [("path", path.path), ("root", path.root)] + extra
    }

    /// The direct children of a folder.
    package func list(_ path: RemotePath) async throws(OfficerError) -> DirectoryListing {
        try await call("GET", Self.base + "ls", query: query(path))
    }

    /// At most `limit` children of a folder in name order (byte order) after the name `after`, where the server
    /// offers paging (the proposed `limit` and `after` of `ls`; its answer says `limit`); a server without it
    /// ignores both and answers the whole folder, which the page then holds (``DirectoryPage/isPaged`` false).
    package func listPage(_ path: RemotePath, limit: Int, after: String?) async throws(OfficerError) -> DirectoryPage {
        let paging = [("limit", String(limit))] + (after.map { [("after", $0)] } ?? [])
        return try await call("GET", Self.base + "ls", query: query(path, paging))
    }

    /// One entry: the proposed `stat` where the server offers it, else the listing of its folder (the root: a
    /// listing of itself), so every command works on a server with only the seed's endpoints.
    package func stat(_ path: RemotePath) async throws(OfficerError) -> FileEntry {
        if offers.offers(.stat) != false {
            // Until `stat` answered in this run, a 404 from it needs the probe: asked beside it (with the features),
            // not a round trip after it.
            let probing = !offers.isConfirmed(.stat) && !path.isRoot
            async let probe: Bool? = probing ? firstContactProbe(root: path.root) : nil
            do {
                let entry = try await call("GET", Self.base + "stat", query: query(path), as: EntryResponse.self).entry
                offers.learn(.stat, offered: true)
                // Awaited, not cancelled: its answer comes as soon (asked at once), and a cancelled request costs
                // its connection.
                _ = await probe
                return entry
            } catch {
                // A 404 from an endpoint the server may not have: "no such file" only once `stat` is known to be
                // offered in this run (a probe of the root tells, once); otherwise the listing answers.
                let offered = await probe
                guard case .notFound = error else { throw error }
                _ = offers.doubt(.stat)
                if let offered { offers.learn(.stat, offered: offered) }
                if try await isOffered(.stat, root: path.root) { throw error }
            }
        }
        if path.isRoot {
            _ = try await list(path)
            return FileEntry(name: "", path: "/", type: .directory, size: 0, mtime: 0)
        }
        guard let entry = try await entryInListing(path) else {
            throw .notFound(request: "stat", message: "\(path): no such file or folder")
        }
        return entry
    }

    /// The server's features and whether it offers `stat`, asked at once: what a first `stat` may need to know of
    /// its 404. Nil when the probe could not tell (its own failure is asked again, and thrown, by the caller).
    private func firstContactProbe(root: String) async -> Bool? {
        async let features: Void = learnFeaturesOnce()
        let offered: Bool?
        do {
            _ = try await raw("GET", Self.base + "stat", query: [("path", "/"), ("root", root)])
            offered = true
        } catch {
            offered = Self.offered(byProbeFailure: error)
        }
        await features
        return offered
    }

    /// Takes in the plugins answer's features, unless they were.
    private func learnFeaturesOnce() async {
        if !offers.hasFeatures { _ = try? await serverInfo() }
    }

    /// What the server is known to offer of `proposal`: remembered, or named by its features (the plugins answer,
    /// asked once); nil when only a use or a probe can tell.
    func knownOffer(_ proposal: Proposal) async -> Bool? {
        if let known = offers.offers(proposal) { return known }
        if !offers.hasFeatures { _ = try? await serverInfo() }
        return offers.offers(proposal)
    }

    /// Whether the server offers `proposal`: what its features said, or what a first probe learnt (a request for
    /// the root of `root`, which every server that has the endpoint answers; a 404 means it has not). Asked once
    /// per front door; `-v` shows the probe.
    func isOffered(_ proposal: Proposal, root: String) async throws(OfficerError) -> Bool {
        if let known = await knownOffer(proposal) { return known }
        let probe: (method: String, path: String, query: [(String, String)])
        switch proposal {
        case .stat: probe = ("GET", Self.base + "stat", [("path", "/"), ("root", root)])
        case .tree: probe = ("GET", Self.base + "tree", [("path", "/"), ("root", root), ("limit", "1")])
        // The root is a folder: a server with the endpoint refuses it as "not a file" (400), one without answers 404.
        case .sha256: probe = ("GET", Self.base + "sha256", [("path", "/"), ("root", root)])
        case .mtime, .tus, .zip, .transcode, .pages: return true  // learnt from their first use
        }
        do {
            _ = try await raw(probe.method, probe.path, query: probe.query)
            offers.learn(proposal, offered: true)
            return true
        } catch {
            guard let offered = Self.offered(byProbeFailure: error) else { throw error }
            offers.learn(proposal, offered: offered)
            return offered
        }
    }

    /// What a probe's failure says of the endpoint: a 404 that it is not there; a refusal of the root (400, 403,
    /// 409) that it is; anything else nothing.
    private static func offered(byProbeFailure error: OfficerError) -> Bool? {
        switch error {
        case .notFound: false
        case .badRequest, .forbidden, .conflict: true
        default: nil
        }
    }

    /// One entry, or nil when nothing is at that path.
    package func statIfExists(_ path: RemotePath) async throws(OfficerError) -> FileEntry? {
        do {
            return try await stat(path)
        } catch {
            if case .notFound = error { return nil }
            throw error
        }
    }

    /// Whether a folder is at `path`: true for a folder, false when nothing is there; a file there is a conflict
    /// (the one check for "a folder is needed here" that uploads and syncs share).
    package func folderExists(_ path: RemotePath) async throws(OfficerError) -> Bool {
        guard let entry = try await statIfExists(path) else { return false }
        guard entry.isDirectory else { throw .conflict(request: "stat", message: "\(path): is a file, not a folder") }
        return true
    }

    /// One page of the recursive listing below `path`, after `cursor`.
    ///
    /// A page that promises more must move forward: it holds entries and its `nextCursor` comes after `cursor` in
    /// the listing's order (depth first, names by bytes). A server repeating or going back is a server error at
    /// once, so a walk can never loop.
    package func tree(_ path: RemotePath, cursor: String? = nil, limit: Int = 1000) async throws(OfficerError)
        -> TreePage
    {
        guard try await isOffered(.tree, root: path.root) else {
            return try await ListingTree(client: self, base: path).page(after: cursor, limit: limit)
        }
        var items = query(path, [("limit", String(limit))])
        if let cursor { items.append(("cursor", cursor)) }
        let page: TreePage
        do {
            page = try await call("GET", Self.base + "tree", query: items)
        } catch .notFound where offers.doubt(.tree) {
            // Offered when last asked, perhaps not now: asked again (once), folder by folder if it is gone.
            return try await tree(path, cursor: cursor, limit: limit)
        }
        offers.learn(.tree, offered: true)
        if let next = page.nextCursor {
            let request = "GET \(Self.base)tree \(path)"
            guard !page.entries.isEmpty else {
                throw .malformedResponse(request: request, detail: "an empty page that promises more")
            }
            if let cursor, !(Self.treeOrderKey(cursor) < Self.treeOrderKey(next)) {
                throw .malformedResponse(
                    request: request,
                    detail:
                        "the listing's cursor did not move forward (\(next.prefix(200)) after \(cursor.prefix(200)))")
            }
        }
        return page
    }

    /// A server path as a key in the tree listing's order.
    static func treeOrderKey(_ path: String) -> SyncPath {
        SyncPath(path.split(separator: "/", omittingEmptySubsequences: true).map(String.init))
    }

    /// Every entry below `path`, page by page, in depth-first name order.
    package func walk(_ path: RemotePath, pageSize: Int = 1000) -> AsyncThrowingStream<FileEntry, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                var cursor: String?
                do {
                    if try await isOffered(.tree, root: path.root) {
                        repeat {
                            let page = try await tree(path, cursor: cursor, limit: pageSize)
                            for entry in page.entries { continuation.yield(entry) }
                            cursor = page.nextCursor
                        } while cursor != nil
                    } else {
                        let walker = ListingTree(client: self, base: path)
                        while let entry = try await walker.next() { continuation.yield(entry) }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The URL of a file's bytes (the `raw` endpoint, ranges and validators supported): what downloads fetch.
    package func rawURL(for path: RemotePath) -> String {
        url(Self.rawEndpoint, query: [("path", path.path), ("root", path.root)])
    }

    /// The Officer path a `raw` URL of any server points at, for showing a journaled download as the user named it.
    package static func remotePath(fromRawURL text: String) -> RemotePath? {
        guard let components = URLComponents(string: text), components.path.hasSuffix(rawEndpoint),
            let path = components.queryItems?.first(where: { $0.name == "path" })?.value
        else { return nil }
        let root = components.queryItems?.first(where: { $0.name == "root" })?.value ?? RemotePath.defaultRoot
        return try? RemotePath(root: root, path: path)
    }

    private static let rawEndpoint = "/api/file-browser/raw"

    /// A JPEG thumbnail of a picture, video or PDF, longest edge at most `size` (the proposed `thumbnail`
    /// endpoint; a server offers it when its features name `thumbnail`).
    package func thumbnail(_ path: RemotePath, size: Int) async throws(OfficerError) -> Data {
        var request = HTTPRequest(
            url: url(
                Self.base + "thumbnail", query: [("path", path.path), ("root", path.root), ("size", String(size))]),
            sink: .memory(limit: 8 << 20), credential: credential)
        request.headers.add("Accept", "image/jpeg")
        return try await send(request, subject: path.description).body
    }

    /// Entries whose names contain `text` (case-insensitive) below `path`.
    package func search(_ text: String, in path: RemotePath) async throws(OfficerError) -> SearchResponse {
        try await call("GET", Self.base + "search", query: [("q", text)] + query(path))
    }

    /// A UTF-8 text file's content (at most 1 MiB; larger files go through `raw`).
    package func read(_ path: RemotePath) async throws(OfficerError) -> ReadResponse {
        try await call("GET", Self.base + "read", query: query(path))
    }

    /// The server's SHA-256 of a file.
    /// The server's SHA-256 of a file, where it offers the proposed endpoint; ``OfficerError/notOffered(request:feature:)``
    /// where it does not (a caller then compares sizes and times, or reads the file back).
    package func sha256(_ path: RemotePath) async throws(OfficerError) -> ChecksumResponse {
        guard try await isOffered(.sha256, root: path.root) else {
            throw .notOffered(request: "sha256", feature: "checksums of its files")
        }
        do {
            let answer: ChecksumResponse = try await call("GET", Self.base + "sha256", query: query(path))
            offers.learn(.sha256, offered: true)
            return answer
        } catch .notFound where offers.doubt(.sha256) {
            // Offered when last asked, perhaps not now: asked again (once).
            return try await sha256(path)
        }
    }

    /// Creates a folder; with `parents`, missing parents too and an existing folder is fine.
    @discardableResult
    package func makeDirectory(_ path: RemotePath, parents: Bool = false) async throws(OfficerError) -> FileEntry {
        do {
            return try await makeDirectoryOnce(path, parents: parents)
        } catch .notFound(let request, let message, "parent_not_found") where !parents {
            // Said as what it is where a file stands above it: `-p` would not create it either.
            if let file = await fileAbove(path) {
                throw .conflict(
                    request: request, message: "\(path): a parent is a file (\(file))", code: "not_a_directory")
            }
            throw .notFound(request: request, message: message, code: "parent_not_found")
        }
    }

    /// The nearest of `path`'s parents that is a file, when the nearest that exists is one.
    private func fileAbove(_ path: RemotePath) async -> RemotePath? {
        var above = path.parent
        while !above.isRoot {
            if let entry = await listedEntry(above) { return entry.isDirectory ? nil : above }
            above = above.parent
        }
        return nil
    }

    private func makeDirectoryOnce(_ path: RemotePath, parents: Bool) async throws(OfficerError) -> FileEntry {
        try await repeatingWrite {
            () async throws(OfficerError) in
            try await call(
                "POST", Self.base + "mkdir", body: MkdirRequest(root: path.root, path: path.path, parents: parents),
                subject: path.description, as: EntryResponse.self
            ).entry
        } applied: {
            await listedEntry(path).flatMap { $0.isDirectory ? $0 : nil }
        }
    }

    /// Writes a text file atomically.
    @discardableResult
    package func write(_ content: String, to path: RemotePath, overwrite: Bool = false, mtime: Double? = nil)
        async throws(OfficerError) -> FileEntry
    {
        let size = Int64(content.utf8.count)
        return try await repeatingWrite {
            () async throws(OfficerError) in
            try await call(
                "POST", Self.base + "write",
                body: WriteRequest(
                    root: path.root, path: path.path, content: content, overwrite: overwrite, mtime: mtime),
                subject: path.description, as: EntryResponse.self
            ).entry
        } applied: {
            await listedEntry(path).flatMap { !$0.isDirectory && $0.size == size ? $0 : nil }
        }
    }

    /// Renames an entry within its folder.
    @discardableResult
    package func rename(_ path: RemotePath, to newName: String) async throws(OfficerError) -> FileEntry {
        let renamed: RemotePath
        do { renamed = try path.parent.appending(newName) } catch { throw .invalidPath(error) }
        return try await repeatingWrite {
            () async throws(OfficerError) in
            try await call(
                "POST", Self.base + "rename", body: RenameRequest(root: path.root, path: path.path, newName: newName),
                subject: path.description, as: EntryResponse.self
            ).entry
        } applied: {
            await Self.moved(from: path, to: renamed, client: self)
        }
    }

    /// Copies a file or folder to a new full path (same root).
    @discardableResult
    package func copy(_ source: RemotePath, to destination: RemotePath, overwrite: Bool = false)
        async throws(OfficerError) -> FileEntry
    {
        try await relocate("copy", source, destination, overwrite)
    }

    /// Moves a file or folder to a new full path (same root).
    @discardableResult
    package func move(_ source: RemotePath, to destination: RemotePath, overwrite: Bool = false)
        async throws(OfficerError) -> FileEntry
    {
        try await relocate("move", source, destination, overwrite)
    }

    private func relocate(_ action: String, _ source: RemotePath, _ destination: RemotePath, _ overwrite: Bool)
        async throws(OfficerError) -> FileEntry
    {
        guard source.root == destination.root else {
            throw .badRequest(
                request: action,
                message: "\(source) and \(destination) are in different roots; the server \(action)s within one root")
        }
        do {
            return try await repeatingWrite {
                () async throws(OfficerError) in
                try await call(
                    "POST", Self.base + action,
                    body: RelocateRequest(
                        root: source.root, from: source.path, to: destination.path, overwrite: overwrite),
                    subject: source.description, as: EntryResponse.self
                ).entry
            } applied: {
                action == "move"
                    ? await Self.moved(from: source, to: destination, client: self)
                    : await Self.copied(source, to: destination, client: self)
            }
        } catch .conflict(let request, _, "exists") {
            // What exists is the destination, not the source the call is named after.
            throw .conflict(request: request, message: "\(destination): already exists", code: "exists")
        }
    }

    /// A move or rename shows as applied when the source is gone and the destination is there. Asked only after
    /// a failure, so a write that succeeds costs no listing.
    private static func moved(from source: RemotePath, to destination: RemotePath, client: OfficerClient) async
        -> FileEntry?
    {
        guard case .absent = await client.listedState(source) else { return nil }
        return await client.listedEntry(destination)
    }

    /// A copy shows as applied when the destination holds what the source is (a file of its size; a folder).
    private static func copied(_ source: RemotePath, to destination: RemotePath, client: OfficerClient) async
        -> FileEntry?
    {
        guard let original = await client.listedEntry(source), let copy = await client.listedEntry(destination),
            copy.type == original.type, copy.isDirectory || copy.size == original.size
        else { return nil }
        return copy
    }

    /// Removes a file, or a folder (non-empty ones only with `recursive`); returns how many entries went.
    @discardableResult
    package func remove(_ path: RemotePath, recursive: Bool = false) async throws(OfficerError) -> Int {
        try await repeatingWrite {
            () async throws(OfficerError) in
            try await call(
                "DELETE", Self.base + "rm", query: query(path, [("recursive", recursive ? "true" : "false")]),
                repeatable: false, as: RemoveResponse.self
            ).removed
        } applied: {
            // Gone after an attempt whose answer was lost: how many went is not known, at least the entry itself.
            if case .absent = await listedState(path) { return 1 }
            return nil
        }
    }

    /// Sets a file's modification time.
    @discardableResult
    package func setModificationTime(_ path: RemotePath, to mtime: Double) async throws(OfficerError) -> FileEntry {
        try await call(
            "POST", Self.base + "mtime", body: SetMtimeRequest(root: path.root, path: path.path, mtime: mtime),
            subject: path.description, repeatable: true, as: EntryResponse.self
        ).entry
    }
}
