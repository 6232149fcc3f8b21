import FileModel
import Foundation
import HTTP
import Transfer

/// Syncs one remote folder into another (an Officer folder and an object-store prefix, either way, or two of a
/// kind): both listings streamed and merged in one order, as ``SyncEngine`` merges a local folder with one.
/// Each file goes through a staging file of its own in `stagingFolder` (never the whole tree: at most
/// `transfers` files at once), which the journal resumes on both sides: the download by its ranges, the
/// upload by the destination's offset or parts. A staged file stays until its upload is done, so a rerun after
/// a kill picks up where either half stopped; it is removed once the file is in place.
public struct RemoteSyncEngine: Sendable {
    /// What is copied from.
    public let source: any SyncRemote
    /// What is made like the source.
    public let destination: any SyncRemote
    /// Where files are staged between their download and their upload.
    public let stagingFolder: String
    /// How to run (the direction is ignored: always source to destination; image preparation does not apply).
    public let options: SyncOptions

    /// Creates an engine.
    public init(source: any SyncRemote, destination: any SyncRemote, stagingFolder: String, options: SyncOptions) {
        self.source = source
        self.destination = destination
        self.stagingFolder = stagingFolder
        self.options = options
    }

    /// The source must be a folder that exists, the destination a folder or nothing yet.
    public func checkRoots() async throws {
        try await source.checkRoot(mustExist: true)
        try await destination.checkRoot(mustExist: false)
    }

    /// Runs the sync and returns its account.
    public func run(onEvent: @escaping @Sendable (SyncEvent) -> Void = { _ in }) async -> SyncReport {
        let started = Date()
        let state = SyncState(report: SyncReport(direction: .push, dryRun: options.dryRun), onEvent: onEvent)
        if !options.dryRun {
            do {
                try await destination.makeDirectory(.root)
                try FileManager.default.createDirectory(atPath: stagingFolder, withIntermediateDirectories: true)
            } catch {
                state.fail("", "create the destination folder", error)
                return state.finish(started)
            }
        }
        let sources = RemoteStream(iterator: source.makeIterator(missingRootIsEmpty: false), filter: options.filter, state: state)
        let destinations = RemoteStream(iterator: destination.makeIterator(missingRootIsEmpty: true), filter: options.filter, state: state)
        var deletions = DeletionList()
        var skipped: SyncPath?
        await withTaskGroup(of: Bool.self) { group in
            var bounds = SyncWorkBounds(options: options)
            var merge = await SyncMerge(left: { await sources.next() }, right: { await destinations.next() })
            while let (item, existing) = await merge.next() {
                if Task.isCancelled { break }
                if let item, let skip = skipped, item.path.isInside(skip) { continue }
                guard let item else {
                    if let existing { deletions.add(existing, enabled: options.deleteExtraneous) }
                    continue
                }
                if let existing, existing.kind != item.kind {
                    state.fail(item.path.description, "sync", "a \(item.kind.rawValue) on one side and a \(existing.kind.rawValue) on the other: left alone")
                    if item.isDirectory { skipped = item.path }
                    continue
                }
                if item.isDirectory {
                    if existing == nil, !(await makeDirectory(item.path, state: state)) { skipped = item.path }
                    continue
                }
                let isCheck = existing != nil
                let work: @Sendable () async -> Void
                if let existing {
                    work = { await compare(item, existing, state: state) }
                } else {
                    state.planned(action(item, reason: "new"))
                    work = { await transfer(item, reason: "new", state: state) }
                }
                await bounds.add(to: &group, isCheck: isCheck, work)
            }
            await group.waitForAll()
        }
        if Task.isCancelled { state.fail("", "sync", "interrupted") }
        await delete(deletions, state: state)
        return state.finish(started)
    }

    private func action(_ item: SyncItem, reason: String) -> SyncAction {
        SyncAction(kind: .upload, path: item.path.description, bytes: item.size, reason: reason)
    }

    private func makeDirectory(_ path: SyncPath, state: SyncState) async -> Bool {
        let action = SyncAction(kind: .makeDirectory, path: path.description, bytes: 0, reason: "new")
        state.planned(action)
        do {
            if !options.dryRun { try await destination.makeDirectory(path) }
            state.directoryCreated(action)
            return true
        } catch {
            state.fail(path.description, "create the folder", error)
            return false
        }
    }

    /// Same path on both sides: sizes, then exact times (asked where a listing's are not), decide.
    private func compare(_ item: SyncItem, _ existing: SyncItem, state: SyncState) async {
        var (item, existing) = (item, existing)
        do {
            if item.size == existing.size, options.comparison != .sizeOnly {
                if !item.isTimeExact { item = try await source.exactItem(item) }
                if !existing.isTimeExact { existing = try await destination.exactItem(existing) }
            }
        } catch {
            state.fail(item.path.description, "compare", error)
            return
        }
        switch options.comparison.needsTransfer(item, over: existing) {
        case true?:
            await transfer(item, reason: "changed", state: state, announce: true)
        case false?:
            state.unchanged()
        case nil:
            do {
                let (mine, theirs) = (try await source.checksum(item.path), try await destination.checksum(item.path))
                if mine.algorithm == theirs.algorithm, mine == theirs {
                    state.unchanged()
                } else {
                    await transfer(item, reason: "changed (checksum)", state: state, announce: true)
                }
            } catch {
                state.fail(item.path.description, "checksum", error)
            }
        }
    }

    /// Download to the staging file (resumable), upload from it under the source's time (resumable), remove it.
    private func transfer(_ item: SyncItem, reason: String, state: SyncState, announce: Bool = false) async {
        let action = action(item, reason: reason)
        if announce { state.planned(action) }
        guard !options.dryRun else {
            state.transferred(action, bytes: item.size)
            return
        }
        let label = item.path.description
        let total = item.size
        // Named after the path: a rerun finds the same staging file (and the journal its download or upload).
        let staged = stagingFolder + "/" + SHA256Hasher.digest(Array(label.utf8)).prefix(16).map { String(format: "%02x", $0) }.joined()
        do {
            var item = item
            if !item.isTimeExact { item = try await source.exactItem(item) }
            // A staged copy of this very version (size and time) from a killed run is not fetched again.
            var info = stat()
            let stagedTime = stat(staged, &info) == 0 ? Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9 : -1
            if Int64(info.st_size) != total || abs(stagedTime - item.mtime) >= SyncComparison.timeTolerance {
                try await source.download(item.path, size: item.size, to: staged) { bytes in state.progress(path: label, bytes: bytes / 2, total: total) }
                try LocalSide.setModificationTime(staged, to: item.mtime)
            }
            try await destination.upload(staged, to: item.path, mtime: item.mtime) { bytes in
                state.progress(path: label, bytes: total / 2 + bytes / 2, total: total)
            }
            unlink(staged)
            state.transferred(action, bytes: total)
        } catch {
            state.fail(label, "copy", error)
        }
    }

    private func delete(_ deletions: DeletionList, state: SyncState) async {
        await deletions.perform(options: options, state: state) { item in
            try await destination.delete(item.path, isDirectory: item.isDirectory)
        }
    }
}
