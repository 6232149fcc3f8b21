import FileModel
import Foundation
import TestSupport
import Testing

@testable import Officer

/// A server side held in memory: files and folders by path, listed in the order the engine merges in.
final class MemoryRemote: SyncRemote, @unchecked Sendable {
    struct Node {
        var isDirectory: Bool
        var data = Data()
        var mtime: Double = 0
    }

    private let lock = NSLock()
    private var nodes: [SyncPath: Node] = [:]
    /// Uploads to these paths fail (a server refusing one file).
    var failingUploads: Set<String> = []
    var description: String { "memory" }

    subscript(_ path: String) -> Node? {
        get { lock.withLock { nodes[SyncPath(path.split(separator: "/").map(String.init))] } }
        set { lock.withLock { nodes[SyncPath(path.split(separator: "/").map(String.init))] = newValue } }
    }

    var paths: [String] { lock.withLock { nodes.keys.sorted().map(\.description) } }

    func makeIterator(missingRootIsEmpty: Bool) -> any SyncRemoteIterator {
        let items = lock.withLock {
            nodes.sorted { $0.key < $1.key }.map { path, node in
                SyncItem(
                    path: path, kind: node.isDirectory ? .directory : .file, size: Int64(node.data.count),
                    mtime: node.mtime)
            }
        }
        return ListIterator(items)
    }

    func makeDirectory(_ path: SyncPath) async throws {
        guard path != .root else { return }  // the root always exists here
        lock.withLock { nodes[path] = Node(isDirectory: true) }
    }

    func upload(_ localFile: String, to path: SyncPath, mtime: Double, onProgress: @escaping @Sendable (Int64) -> Void)
        async throws
    {
        if failingUploads.contains(path.description) {
            throw OfficerError.forbidden(request: "upload", message: "\(path): refused")
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: localFile))
        onProgress(Int64(data.count))
        lock.withLock { nodes[path] = Node(isDirectory: false, data: data, mtime: mtime) }
    }

    func download(_ item: SyncItem, to localFile: String, onProgress: @escaping @Sendable (Int64) -> Void)
        async throws -> SyncFetched
    {
        guard let node = lock.withLock({ nodes[item.path] }) else {
            throw OfficerError.notFound(request: "download", message: "\(item.path)")
        }
        try node.data.write(to: URL(fileURLWithPath: localFile))
        let date = Date(timeIntervalSince1970: node.mtime)
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: localFile)
        onProgress(Int64(node.data.count))
        return SyncFetched()
    }

    func delete(_ path: SyncPath, isDirectory: Bool) async throws {
        lock.withLock { nodes = nodes.filter { key, _ in !(key == path || key.isInside(path)) } }
    }

    func sha256(_ path: SyncPath) async throws -> String {
        let hasher = SHA256Hasher()
        hasher.update(lock.withLock { nodes[path]?.data } ?? Data())
        return hasher.finalizeHex()
    }

    func setModificationTime(_ path: SyncPath, to mtime: Double) async throws {
        lock.withLock { nodes[path]?.mtime = mtime }
    }
}

final class ListIterator: SyncRemoteIterator, @unchecked Sendable {
    private var items: [SyncItem]
    init(_ items: [SyncItem]) { self.items = items.reversed() }
    func next() async throws -> Result<SyncItem, SyncNameError>? { items.popLast().map { .success($0) } }
}

/// The sync engine's decisions against a remote in memory: what moves, what stays, what is deleted and when not.
@Suite struct SyncEngineTests {
    let local = TemporaryDirectory(prefix: "sync-engine")

    func write(_ path: String, _ text: String, mtime: Double = 1_700_000_000.125) throws {
        let full = local.path + "/" + path
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: full))
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: mtime)], ofItemAtPath: full)
    }

    func sync(
        _ remote: MemoryRemote, _ direction: SyncDirection, root: String? = nil,
        configure: (inout SyncOptions) -> Void = { _ in }
    )
        async -> SyncReport
    {
        var options = SyncOptions(direction: direction)
        configure(&options)
        return await SyncEngine(localRoot: root ?? local.path, remote: remote, options: options).run()
    }

    @Test func pushesWhatDiffersAndOnlyThat() async throws {
        try write("a/b.txt", "bee")
        try write("a/c/d.txt", "dee")
        try write("e.txt", "e")
        let remote = MemoryRemote()
        let first = await sync(remote, .push)
        #expect(first.transferred == 3 && first.directoriesCreated == 2 && first.succeeded, "\(first)")
        #expect(remote.paths == ["a", "a/b.txt", "a/c", "a/c/d.txt", "e.txt"])
        #expect(remote["a/c/d.txt"]?.data == Data("dee".utf8))
        #expect(abs((remote["a/c/d.txt"]?.mtime ?? 0) - 1_700_000_000.125) < 0.002)

        let again = await sync(remote, .push)
        #expect(again.transferred == 0 && again.unchanged == 3)
        try write("e.txt", "changed")
        let changed = await sync(remote, .push)
        #expect(changed.transferred == 1 && remote["e.txt"]?.data == Data("changed".utf8))
        // Same bytes, another time: by size and time it goes again; by checksum only the time is set.
        try write("a/b.txt", "bee", mtime: 1_700_000_100)
        let checked = await sync(remote, .push) { $0.comparison = .checksum }
        #expect(checked.transferred == 0 && checked.timesSet == 1, "\(checked)")
        #expect(abs((remote["a/b.txt"]?.mtime ?? 0) - 1_700_000_100) < 0.002)
        try write("a/b.txt", "bee", mtime: 1_700_000_200)
        let timed = await sync(remote, .push)
        #expect(timed.transferred == 1, "\(timed)")
    }

    @Test func deletesOnlyAfterACleanRunAndWithinTheLimit() async throws {
        try write("keep.txt", "k")
        try write("refused.txt", "r")
        let remote = MemoryRemote()
        remote["extra.txt"] = .init(isDirectory: false, data: Data("x".utf8), mtime: 1)
        remote["old"] = .init(isDirectory: true)
        remote["old/inner.txt"] = .init(isDirectory: false, data: Data("i".utf8), mtime: 1)
        remote.failingUploads = ["refused.txt"]
        let failed = await sync(remote, .push) { $0.deleteExtraneous = true }
        #expect(failed.failureCount == 1 && failed.deletionsSkipped != nil && !failed.succeeded)
        #expect(remote["extra.txt"] != nil && remote["old/inner.txt"] != nil)

        remote.failingUploads = []
        let limited = await sync(remote, .push) {
            $0.deleteExtraneous = true
            $0.maxDelete = 1
        }
        #expect(limited.deletionsSkipped != nil && remote["extra.txt"] != nil, "\(limited)")
        let clean = await sync(remote, .push) { $0.deleteExtraneous = true }
        #expect(clean.succeeded && clean.deleted == 3, "\(clean)")
        #expect(remote.paths == ["keep.txt", "refused.txt"])
    }

    @Test func pullsIntoAnEmptyFolderAndADryRunChangesNothing() async throws {
        let remote = MemoryRemote()
        remote["docs"] = .init(isDirectory: true)
        remote["docs/r.txt"] = .init(isDirectory: false, data: Data("remote".utf8), mtime: 1_600_000_000.5)
        let target = local.path + "/pulled"
        let planned = await sync(remote, .pull, root: target) { $0.dryRun = true }
        #expect(planned.transferred == 1 && !FileManager.default.fileExists(atPath: target + "/docs/r.txt"))
        let pulled = await sync(remote, .pull, root: target)
        #expect(pulled.transferred == 1 && pulled.succeeded, "\(pulled)")
        #expect(try String(contentsOfFile: target + "/docs/r.txt", encoding: .utf8) == "remote")
        let mtime = try #require(
            try FileManager.default.attributesOfItem(atPath: target + "/docs/r.txt")[.modificationDate] as? Date)
        #expect(abs(mtime.timeIntervalSince1970 - 1_600_000_000.5) < 0.002)
    }
}
