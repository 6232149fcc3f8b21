import FileModel
import Foundation
import HTTP
import Transfer

/// Syncs a local folder and a remote folder in one direction, streaming: both sides are listed in the same
/// order and merged as they arrive, and transfers start while listing goes on, at most `transfers` at once,
/// so memory stays bounded whatever the size of the trees. Deletions come last, only after a run without
/// errors, and never more than `maxDelete`. On pull, names from the server are checked before use, nothing
/// is written outside the local folder (a parent that is a symbolic link is refused), and a local file that
/// changed since it was compared is not overwritten.
public struct SyncEngine: Sendable {
    /// The local folder.
    public let localRoot: String
    /// The remote side.
    public let remote: any SyncRemote
    /// How to run.
    public let options: SyncOptions

    /// Creates an engine.
    public init(localRoot: String, remote: any SyncRemote, options: SyncOptions) {
        self.localRoot = URL(fileURLWithPath: localRoot).standardizedFileURL.path
        self.remote = remote
        self.options = options
    }

    /// Checks both roots before anything moves: the source must be a folder that exists, the destination a
    /// folder or nothing yet. Throws the first problem (a file where a folder should be: a conflict), so a
    /// caller can stop before a single transfer.
    public func checkRoots() async throws {
        let push = options.direction == .push
        var info = stat()
        let found = stat(localRoot, &info) == 0
        if found, info.st_mode & S_IFMT != S_IFDIR {
            throw SyncRootError.notAFolder(path: localRoot)
        }
        if !found, push { throw SyncRootError.missing(path: localRoot) }
        try await remote.checkRoot(mustExist: !push)
    }

    /// Runs the sync and returns its account; `onEvent` hears the plan, progress, failures and warnings.
    public func run(onEvent: @escaping @Sendable (SyncEvent) -> Void = { _ in }) async -> SyncReport {
        let started = Date()
        let state = SyncState(report: SyncReport(direction: options.direction, dryRun: options.dryRun), onEvent: onEvent)
        let push = options.direction == .push
        if !options.dryRun {
            do {
                if push { try await remote.makeDirectory(.root) } else { try FileManager.default.createDirectory(atPath: localRoot, withIntermediateDirectories: true) }
            } catch {
                state.fail("", push ? "create the remote folder" : "create the local folder", error)
                return state.finish(started)
            }
        }
        let walker = LocalTreeWalker(
            root: localRoot, followSymlinks: options.followSymlinks, filter: options.filter,
            rename: push ? options.imagePreparation?.uploadedName : nil
        ) { path, message, isError in
            if isError { state.fail(path.description, "read", message) } else { state.warn("\(path): \(message)") }
        }
        walker.missingRootIsEmpty = !push
        let remoteItems = RemoteStream(iterator: remote.makeIterator(missingRootIsEmpty: push), filter: options.filter, state: state)
        var deletions = DeletionList()
        var skipSource: SyncPath?  // a source folder whose contents cannot be synced (its creation failed)

        await withTaskGroup(of: Bool.self) { group in
            var bounds = SyncWorkBounds(options: options)
            var merge = await SyncMerge(left: { walker.next() }, right: { await remoteItems.next() })
            while let (local, remoteItem) = await merge.next() {
                if Task.isCancelled { break }
                let (source, destination) = push ? (local, remoteItem) : (remoteItem.map(storable), local)
                if let source, let skip = skipSource, source.path.isInside(skip) { continue }
                guard let source else {
                    if let destination { deletions.add(destination, enabled: options.deleteExtraneous) }
                    continue
                }
                if let destination, destination.kind != source.kind {
                    state.fail(source.path.description, "sync", "a \(source.kind.rawValue) on one side and a \(destination.kind.rawValue) on the other: left alone")
                    if source.isDirectory { skipSource = source.path }
                    continue
                }
                if source.isDirectory {
                    if destination == nil, !(await makeDirectory(source.path, state: state)) { skipSource = source.path }
                    continue
                }
                let work: @Sendable () async -> Void
                var isCheck = false
                if let destination {
                    let ignoringSize = source.sourceName != nil
                    let remoteTimeIsExact = push ? destination.isTimeExact : source.isTimeExact
                    if !remoteTimeIsExact, ignoringSize || (source.size == destination.size && options.comparison != .sizeOnly) {
                        // Same size: the remote's exact time decides, asked off the listing's path.
                        isCheck = true
                        work = { await resolveAndCompare(source, destination, state: state) }
                    } else {
                        switch options.comparison.needsTransfer(source, over: destination, ignoringSize: source.sourceName != nil) {
                        case true?:
                            state.planned(transferAction(source, reason: "changed"))
                            work = { await transfer(source, over: destination, reason: "changed", state: state) }
                        case false?:
                            state.unchanged()
                            continue
                        case nil:
                            isCheck = true
                            work = { await compareContent(source, destination, state: state) }
                        }
                    }
                } else {
                    state.planned(transferAction(source, reason: "new"))
                    work = { await transfer(source, over: nil, reason: "new", state: state) }
                }
                await bounds.add(to: &group, isCheck: isCheck, work)
            }
            await group.waitForAll()
        }
        if Task.isCancelled { state.fail("", "sync", "interrupted") }
        await delete(deletions, state: state)
        return state.finish(started)
    }

    // MARK: Steps

    private func makeDirectory(_ path: SyncPath, state: SyncState) async -> Bool {
        let action = SyncAction(kind: .makeDirectory, path: path.description, bytes: 0, reason: "new")
        state.planned(action)
        guard !options.dryRun else {
            state.directoryCreated(action)
            return true
        }
        do {
            if options.direction == .push {
                try await remote.makeDirectory(path)
            } else {
                try LocalSide.makeDirectory(path, in: localRoot)
            }
            state.directoryCreated(action)
            return true
        } catch {
            state.fail(path.description, "create the folder", error)
            return false
        }
    }

    /// A pulled item with the time the local file system will keep of it, so a time it clamps compares equal
    /// with the clamped copy on the next run instead of being pulled again every time.
    private func storable(_ item: SyncItem) -> SyncItem {
        var item = item
        if !item.isDirectory { item.mtime = LocalSide.storableTime(item.mtime, in: localRoot) }
        return item
    }

    private func transferAction(_ source: SyncItem, reason: String) -> SyncAction {
        SyncAction(kind: options.direction == .push ? .upload : .download, path: source.path.description, bytes: source.size, reason: reason)
    }

    /// Compares after asking the remote for its side's exact time (same size, so the time decides).
    private func resolveAndCompare(_ source: SyncItem, _ destination: SyncItem, state: SyncState) async {
        let push = options.direction == .push
        var (exactSource, exactDestination) = (source, destination)
        do {
            if push { exactDestination = try await remote.exactItem(destination) } else { exactSource = storable(try await remote.exactItem(source)) }
        } catch {
            state.fail(source.path.description, "compare", error)
            return
        }
        switch options.comparison.needsTransfer(exactSource, over: exactDestination, ignoringSize: source.sourceName != nil) {
        case true?: await transfer(exactSource, over: exactDestination, reason: "changed", state: state, announce: true)
        case false?: state.unchanged()
        case nil: await compareContent(exactSource, exactDestination, state: state)
        }
    }

    /// Moves one file; `planned` was announced by the caller (in listing order, which a dry run prints).
    private func transfer(_ source: SyncItem, over destination: SyncItem?, reason: String, state: SyncState, announce: Bool = false) async {
        let push = options.direction == .push
        var source = source
        let action = transferAction(source, reason: reason)
        if announce { state.planned(action) }
        guard !options.dryRun else {
            state.transferred(action, bytes: source.size)
            return
        }
        let label = source.path.description
        let total = source.size
        let progress: @Sendable (Int64) -> Void = { bytes in state.progress(path: label, bytes: bytes, total: total) }
        do {
            if push {
                let parent = source.path.components.dropLast().map { "/" + $0 }.joined()
                let relative = parent + "/" + (source.sourceName ?? source.name)
                let local = localRoot + relative
                // Checked as late as possible: a file a writer started on after the listing waits too.
                if let settle = options.settle, !settle.isSettled(local, listedSize: source.size, mtime: source.mtime) {
                    state.deferred(String(relative.dropFirst()))
                    return
                }
                var file = local
                if let preparation = options.imagePreparation, source.sourceName != nil { file = try await preparation.prepare(local) }
                try await remote.upload(file, to: source.path, mtime: source.mtime, onProgress: progress)
                state.transferred(action, bytes: (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int64) ?? source.size)
                // A prepared copy is kept until its upload is done, so an interrupted run resumes the same bytes.
                if file != local { unlink(file) }
            } else {
                // A pulled file gets the remote's exact time, which its listing may not carry.
                if !source.isTimeExact { source = storable(try await remote.exactItem(source)) }
                try await LocalSide.receive(source, replacing: destination, in: localRoot, remote: remote, onProgress: progress)
                state.transferred(action, bytes: source.size)
            }
        } catch {
            state.fail(label, push ? "upload" : "download", error)
        }
    }

    /// Same size under `--checksum`: the server's SHA-256 against the local one decides; equal content with
    /// another modification time only gets the time set.
    private func compareContent(_ source: SyncItem, _ destination: SyncItem, state: SyncState) async {
        let push = options.direction == .push
        let local = push ? source : destination
        do {
            let remoteHash: SyncChecksum
            do {
                remoteHash = try await remote.checksum(source.path)
            } catch OfficerError.notOffered {
                // A server without checksums (the seed's): said once, and size and time decide as without --checksum.
                state.warnOnce("--checksum: the server does not offer checksums of its files; comparing size and time")
                if SyncComparison.sizeAndTime.needsTransfer(source, over: destination) == true {
                    await transfer(source, over: destination, reason: "changed", state: state, announce: true)
                } else {
                    state.unchanged()
                }
                return
            }
            let localHash = try SyncChecksum.of(file: localRoot + "/" + local.path.description, algorithm: remoteHash.algorithm)
            if localHash != remoteHash {
                await transfer(source, over: destination, reason: "changed (checksum)", state: state, announce: true)
                return
            }
            guard abs(source.mtime - destination.mtime) >= SyncComparison.timeTolerance else {
                state.unchanged()
                return
            }
            let action = SyncAction(kind: .setTime, path: source.path.description, bytes: 0, reason: "same content")
            state.planned(action)
            if !options.dryRun {
                if push {
                    try await remote.setModificationTime(source.path, to: source.mtime)
                } else {
                    try LocalSide.setModificationTime(localRoot + "/" + source.path.description, to: source.mtime)
                }
            }
            state.timeSet(action)
        } catch {
            state.fail(source.path.description, "checksum", error)
        }
    }

    private func delete(_ deletions: DeletionList, state: SyncState) async {
        await deletions.perform(options: options, state: state) { item in
            if options.direction == .push {
                try await remote.delete(item.path, isDirectory: item.isDirectory)
            } else {
                try LocalSide.delete(item, in: localRoot)
            }
        }
    }
}

/// Destination entries the source lacks: the top-most ones (a folder stands for its contents) and a count.
struct DeletionList {
    private(set) var items: [(SyncItem, Int)] = []
    private(set) var count = 0
    private var current: SyncPath?

    mutating func add(_ item: SyncItem, enabled: Bool) {
        count += 1
        guard enabled else { return }
        if let current, item.path.isInside(current), !items.isEmpty {
            items[items.count - 1].1 += 1
            return
        }
        items.append((item, 1))
        current = item.isDirectory ? item.path : nil
    }

    /// Deletes them, the sync's last step: only when asked, after a run without failures, within `maxDelete`
    /// (the whole deletion or nothing), each reported; a dry run reports without removing.
    func perform(options: SyncOptions, state: SyncState, remove: (SyncItem) async throws -> Void) async {
        state.extraneous(count)
        guard options.deleteExtraneous, count > 0 else { return }
        if let reason = state.deletionBlocker {
            state.skipDeletions("\(count) entries not deleted: \(reason)")
            return
        }
        if let limit = options.maxDelete, count > limit {
            state.skipDeletions("\(count) entries would be deleted, more than --max-delete \(limit): nothing was deleted")
            return
        }
        for (item, entries) in items {
            let action = SyncAction(kind: .delete, path: item.path.description, bytes: 0, reason: "extraneous")
            state.planned(action)
            do {
                if !options.dryRun { try await remove(item) }
                state.deleted(action, count: entries)
            } catch {
                state.fail(item.path.description, "delete", error)
            }
        }
    }
}

/// The remote listing with refused names reported once per subtree and excluded subtrees left out.
final class RemoteStream: @unchecked Sendable {
    private let iterator: any SyncRemoteIterator
    private let filter: SyncFilter
    private let state: SyncState
    private var excluded: SyncPath?
    private var refusedPrefix: String?
    private var previous: SyncPath?
    private var outOfOrder = 0

    init(iterator: any SyncRemoteIterator, filter: SyncFilter, state: SyncState) {
        self.iterator = iterator
        self.filter = filter
        self.state = state
    }

    func next() async -> SyncItem? {
        while true {
            let result: Result<SyncItem, SyncNameError>?
            do {
                result = try await iterator.next()
            } catch {
                state.fail("", "list the remote folder", error)
                return nil
            }
            guard let result else {
                if outOfOrder > 1 {
                    state.fail("", "list the remote folder", "\(outOfOrder - 1) more entries listed out of order: skipped")
                    outOfOrder = 0
                }
                return nil
            }
            switch result {
            case .failure(let refused):
                if let prefix = refusedPrefix, refused.name.hasPrefix(prefix) { continue }
                refusedPrefix = refused.name + "/"
                state.fail(refused.printableName, "refused", refused.reason)
            case .success(let item):
                if let excluded, item.path.isInside(excluded) { continue }
                guard filter.includes(item.path, isDirectory: item.isDirectory) else {
                    if item.isDirectory { excluded = item.path }
                    continue
                }
                if let previous, previous == item.path {
                    state.fail(item.path.description, "list the remote folder", "listed twice (a file and a folder of the same name?): skipped")
                    continue
                }
                if let previous, !(previous < item.path) {
                    // Reported once with a count: a server repeating itself must not grow the report without end.
                    outOfOrder += 1
                    if outOfOrder == 1 {
                        state.fail(item.path.description, "list the remote folder", "the server listed it out of order: skipped")
                    }
                    continue
                }
                previous = item.path
                return item
            }
        }
    }
}

/// A local sync root that cannot be used.
public enum SyncRootError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A file is where the folder should be.
    case notAFolder(path: String)
    /// The source folder does not exist.
    case missing(path: String)

    /// A one-line message.
    public var description: String {
        switch self {
        case .notAFolder(let path): "\(path): is a file, not a folder"
        case .missing(let path): "\(path): no such folder"
        }
    }
}
