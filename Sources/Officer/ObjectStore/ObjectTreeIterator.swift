import FileModel
import Foundation
import HTTP
import Journal
import Transfer

/// Walks the prefix tree one level at a time (a listing with delimiter `/` per folder), each level sorted into
/// the sync's order (by UTF-8 name, a folder right before its contents) — S3's flat key order puts `a.txt`
/// before `a/b`, which a merge cannot use. One level is held at a time per depth, and the next few folders the
/// walk will enter are listed ahead, at once: a folder's listing costs a round trip, which on a slow link would
/// otherwise be paid once a folder, one after another.
///
/// A tree that one flat page holds (at most 1,000 keys, asked first without a delimiter) is taken from that page
/// alone, sorted into the same order: one round trip instead of one per level. A larger tree, or one whose keys
/// the sync would refuse or that holds a file and a folder of one name, is walked by level as above.
actor ObjectTreeIterator: SyncRemoteIterator {
    /// Folders listed ahead at most.
    static let listedAhead = 32
    /// How far into each level the walk looks for the folders to list ahead.
    static let lookAhead = 64
    private var ahead: [SyncPath: Task<[Result<SyncItem, SyncNameError>], any Error>] = [:]
    private let client: ObjectStoreClient
    private let bucket: String
    private let base: String
    private let missingRootIsEmpty: Bool
    private let journal: TransferJournal?
    /// Levels being walked, innermost last; each holds its remaining entries in reverse order.
    private var levels: [[Result<SyncItem, SyncNameError>]] = []
    private var started = false
    private var descendInto: SyncPath?
    /// The whole tree came in one flat page: its folders are not listed again.
    private var flat = false
    /// The first flat page, asked as the iterator is made (beside the sync's root check, not after it).
    private let firstPage: Task<ObjectListPage, any Error>

    init(client: ObjectStoreClient, bucket: String, base: String, missingRootIsEmpty: Bool, journal: TransferJournal?) {
        self.journal = journal
        self.client = client
        self.bucket = bucket
        self.base = base
        self.missingRootIsEmpty = missingRootIsEmpty
        firstPage = Task { try await client.list(bucket: bucket, prefix: base) }
    }

    func next() async throws -> Result<SyncItem, SyncNameError>? {
        if !started {
            started = true
            do {
                if let tree = try await wholeTreeInOnePage() {
                    flat = true
                    levels.append(tree.map { .success($0) }.reversed())
                } else {
                    levels.append(try await level(.root))
                    listAhead()
                }
            } catch ObjectStoreError.noSuchBucket(_) where missingRootIsEmpty {
                return nil
            }
        }
        if let folder = descendInto {
            descendInto = nil
            if let listing = ahead.removeValue(forKey: folder) {
                levels.append(try await listing.value)
            } else {
                levels.append(try await level(folder))
            }
            listAhead()
        }
        while let last = levels.indices.last {
            guard let entry = levels[last].popLast() else {
                levels.removeLast()
                continue
            }
            if !flat, case .success(let item) = entry, item.isDirectory { descendInto = item.path }
            return entry
        }
        return nil
    }

    deinit {
        firstPage.cancel()
        for listing in ahead.values { listing.cancel() }
    }

    /// Starts the listings of the next folders the walk will enter (innermost level first, in walk order), up to
    /// ``listedAhead`` at once.
    private func listAhead() {
        for depth in levels.indices.reversed() {
            for entry in levels[depth].suffix(Self.lookAhead).reversed() {
                guard ahead.count < Self.listedAhead else { return }
                guard case .success(let item) = entry, item.isDirectory, ahead[item.path] == nil else { continue }
                let path = item.path
                ahead[path] = Task { [self] in try await level(path) }
            }
        }
    }

    /// Every entry below the root in sync order, folders implied by the keys included, when one page without a
    /// delimiter holds them all and every name is one the sync takes; nil when the tree must be walked by level.
    private func wholeTreeInOnePage() async throws -> [SyncItem]? {
        let page = try await firstPage.value
        guard page.nextToken == nil else { return nil }
        let remembered =
            (try? journal?.objectTimes(endpoint: client.endpoint.url, bucket: bucket, prefix: base, deep: true)) ?? [:]
        var files: [SyncItem] = []
        var folders = Set<SyncPath>()
        for object in page.objects where object.key.hasPrefix(base) && object.key != base {
            let relative = String(object.key.dropFirst(base.count))
            let isMarker = relative.hasSuffix("/")
            let components = (isMarker ? String(relative.dropLast()) : relative).split(
                separator: "/", omittingEmptySubsequences: false
            ).map(String.init)
            guard
                case .success(let path) = SyncPath.relative(
                    entryPath: "/" + components.joined(separator: "/"), name: components.last ?? "", below: "/")
            else { return nil }
            for depth in 1..<components.count { folders.insert(SyncPath(Array(components.prefix(depth)))) }
            if isMarker {
                folders.insert(path)
                continue
            }
            var item = SyncItem(path: path, kind: .file, size: object.size, mtime: object.lastModified)
            Self.takeRememberedTime(of: object.key, etag: object.etag, into: &item, remembered)
            files.append(item)
        }
        // A file and a folder of one name: the walk by level reports them as it always has.
        if files.contains(where: { folders.contains($0.path) }) { return nil }
        let items = files + folders.map { SyncItem(path: $0, kind: .directory, size: 0, mtime: 0) }
        return items.sorted { $0.path < $1.path }
    }

    /// A listed object's version is its ETag (a fetch holds its ranges to it); its time is when the store wrote it:
    /// exact only as remembered for this version.
    private static func takeRememberedTime(
        of key: String, etag: String?, into item: inout SyncItem, _ remembered: [String: TransferJournal.ObjectTime]
    ) {
        item.listedVersion = etag
        if let known = remembered[key], let etag, known.etag == ObjectInfo.unquoted(etag), known.size == item.size {
            item.mtime = known.mtime
        } else {
            item.isTimeExact = false
        }
    }

    /// Every entry directly inside `folder`, in sync order, reversed for popping.
    private nonisolated func level(_ folder: SyncPath) async throws -> [Result<SyncItem, SyncNameError>] {
        let prefix = base + (folder == .root ? "" : folder.description + "/")
        var items: [SyncItem] = []
        var refused: [Result<SyncItem, SyncNameError>] = []
        var token: String?
        let remembered =
            (try? journal?.objectTimes(endpoint: client.endpoint.url, bucket: bucket, prefix: prefix)) ?? [:]
        func add(_ name: String, kind: SyncItem.Kind, size: Int64, mtime: Double, etag: String? = nil) {
            let relative = "/" + (folder == .root ? "" : folder.description + "/") + name
            switch SyncPath.relative(entryPath: relative, name: name, below: "/") {
            case .success(let path):
                var item = SyncItem(path: path, kind: kind, size: size, mtime: mtime)
                if kind == .file { Self.takeRememberedTime(of: prefix + name, etag: etag, into: &item, remembered) }
                items.append(item)
            case .failure(let error): refused.append(.failure(SyncNameError(name: prefix + name, reason: error.reason)))
            }
        }
        repeat {
            let page = try await client.list(bucket: bucket, prefix: prefix, delimiter: "/", continuation: token)
            for folderPrefix in page.prefixes where folderPrefix.hasPrefix(prefix) {
                add(String(folderPrefix.dropFirst(prefix.count).dropLast()), kind: .directory, size: 0, mtime: 0)
            }
            for object in page.objects where object.key.hasPrefix(prefix) && object.key != prefix {
                // A `name/` marker of an empty folder is also a listed prefix only when something is inside.
                if object.key.hasSuffix("/") {
                    let name = String(object.key.dropFirst(prefix.count).dropLast())
                    if !page.prefixes.contains(object.key) { add(name, kind: .directory, size: 0, mtime: 0) }
                    continue
                }
                add(
                    String(object.key.dropFirst(prefix.count)), kind: .file, size: object.size,
                    mtime: object.lastModified, etag: object.etag)
            }
            token = page.nextToken
        } while token != nil
        // A marker and a prefix of the same folder (on different pages) are one folder.
        items.sort { $0.path < $1.path }
        var unique: [SyncItem] = []
        for item in items
        where !(item.isDirectory && unique.last.map { $0.isDirectory && $0.path == item.path } == true) {
            unique.append(item)
        }
        return (refused + unique.map { .success($0) }).reversed()
    }
}
