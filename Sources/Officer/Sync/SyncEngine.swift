import FileModel
import Foundation
import HTTP
import Transfer

/// Makes one side like another, for every pair: a local folder and a remote either way, two remotes (an
/// Officer folder and an object-store prefix, either way, or two of a kind), two local folders. Both listings
/// stream in the same order and are merged as they arrive; transfers start while listing goes on, at most
/// `transfers` at once, so memory stays bounded whatever the size of the trees. Deletions come last, only after
/// a run without errors, and never more than `maxDelete`.
///
/// What differs between sides lives in the sides (``SyncRemote``'s hooks), not here: the local disk is read
/// directly, written through a temp file that replaces a file only if it is still what the plan saw, never
/// through a symbolic link; between two remotes each file goes through a staging file of its own in
/// `stagingFolder` (never the whole tree), which the journal resumes on both halves and which stays until the
/// file is in place, so a rerun after a kill picks up where either half stopped.
package struct SyncEngine: Sendable {
    /// What is copied from.
    package let source: any SyncRemote
    /// What is made like the source.
    package let destination: any SyncRemote
    /// Where files are staged between their download and their upload when neither side is the local disk.
    package let stagingFolder: String
    /// How to run.
    package let options: SyncOptions
    /// The servers and stores its failures are told by (``OfficerFilesError``).
    package var locationNames = LocationNames()

    /// Creates an engine for any two sides.
    package init(source: any SyncRemote, destination: any SyncRemote, stagingFolder: String, options: SyncOptions) {
        self.source = options.transfersPerSide.source.map { LimitedSyncRemote(source, limit: $0) } ?? source
        self.destination =
            options.transfersPerSide.destination.map { LimitedSyncRemote(destination, limit: $0) } ?? destination
        self.stagingFolder = stagingFolder
        self.options = options
    }

    /// Creates an engine between a local folder and a remote, the way ``SyncOptions/direction`` says.
    package init(localRoot: String, remote: any SyncRemote, options: SyncOptions) {
        let push = options.direction == .push
        let local = RemoteSyncSide(
            LocalDiskRemote(), root: SyncRoot(.local(localRoot), options: options, isSource: push))
        self.init(
            source: push ? local : remote, destination: push ? remote : local,
            stagingFolder: NSTemporaryDirectory() + "officer-files-staging", options: options)
    }

    /// Checks both roots before anything moves: the source must be a folder that exists, the destination a
    /// folder or nothing yet. Throws the first problem (a file where a folder should be: a conflict), so a
    /// caller can stop before a single transfer.
    package func checkRoots() async throws {
        // Both sides asked at once (a sync between two remotes waits one round trip, not two); the source's
        // problem is told first.
        async let destinationChecked = Result<Void, any Error>.awaiting {
            try await destination.checkRoot(mustExist: false)
        }
        let sourceChecked = await Result<Void, any Error>.awaiting { try await source.checkRoot(mustExist: true) }
        try sourceChecked.get()
        try await destinationChecked.get()
    }

    /// Neither side is this machine's disk: files are staged between their halves.
    private var isStaged: Bool { !source.isLocalDisk && !destination.isLocalDisk }

    /// Runs the sync and returns its account; `onEvent` hears the plan, progress, failures and warnings. A refusal
    /// of the token (no sign-in replaced it) stops it: nothing more is started, and the refusal is its one failure
    /// of category authentication (``runUntilRefused(onEvent:)`` throws it instead).
    package func run(onEvent: @escaping @Sendable (SyncEvent) -> Void = { _ in }) async -> SyncReport {
        let state = SyncState(
            report: SyncReport(direction: options.direction, dryRun: options.dryRun), terms: locationNames,
            clock: options.clock, onEvent: onEvent)
        return await run(in: state, listings: listings(in: state))
    }

    /// The same, throwing the refusal of the token that stopped the sync (an `OfficerError.notSignedIn` from an
    /// Officer side): what the front door's sync does, so its caller is told to sign in again, once. The roots are
    /// checked first (``checkRoots()``'s problem thrown before anything moves), while the listings already start.
    func runUntilRefused(onEvent: @escaping @Sendable (SyncEvent) -> Void) async throws -> SyncReport {
        let state = SyncState(
            report: SyncReport(direction: options.direction, dryRun: options.dryRun), terms: locationNames,
            clock: options.clock, onEvent: onEvent)
        // The listings are made first: a side that can starts its first page at once, beside the roots' check.
        let listings = listings(in: state)
        try await checkRoots()
        let report = await run(in: state, listings: listings)
        if var stopped = state.refusal as? SyncStopped {
            stopped.transferred = report.transferred
            throw stopped
        }
        if let refusal = state.refusal { throw refusal }
        return report
    }

    /// Both sides' listings, their problems told to `state`.
    private func listings(in state: SyncState) -> (sources: RemoteStream, destinations: RemoteStream) {
        let problem: @Sendable (SyncPath, String, Bool) -> Void = { path, message, isError in
            if isError { state.fail(path.description, "read", message) } else { state.warn("\(path): \(message)") }
        }
        return (
            RemoteStream(
                iterator: source.makeIterator(missingRootIsEmpty: false, onProblem: problem), filter: options.filter,
                state: state),
            RemoteStream(
                iterator: destination.makeIterator(missingRootIsEmpty: true, onProblem: problem),
                filter: options.filter, state: state)
        )
    }

    private func run(in state: SyncState, listings: (sources: RemoteStream, destinations: RemoteStream)) async
        -> SyncReport
    {
        let started = Date()
        let (sources, destinations) = listings
        // The root is made while the listings go on (one round trip each, at once); nothing is sent before it.
        let makingRoot = startMakingRoot()
        var merge = await SyncMerge(left: { await sources.next() }, right: { await destinations.next() })
        if let makingRoot, let error = await makingRoot.value {
            let what = destination.isLocalDisk ? "local" : source.isLocalDisk ? "remote" : "destination"
            state.fail("", "create the \(what) folder", error)
            return state.finish(started)
        }
        let meters = [source.linkMeter, destination.linkMeter].compactMap { $0 }
        var plan = SyncPlan(state: state, bounds: SyncWorkBounds(options: options, meters: meters))
        await withTaskGroup(of: Int.self) { group in
            while let (listed, existing) = await merge.next() {
                if Task.isCancelled || state.refusal != nil { break }
                await self.plan(listed.map(destination.storable), over: existing, in: &plan, group: &group)
            }
            while !plan.making.isEmpty, !Task.isCancelled, state.refusal == nil {
                await leave(&plan, group: &group)
            }
            // Stopped (a listing refused, the server gone, the token refused): what is under way stops too.
            if state.refusal != nil { group.cancelAll() }
            await group.waitForAll()
        }
        state.reportLeftOut()
        if Task.isCancelled { state.interrupted() }
        await plan.deletions.perform(options: options, state: state) { item in
            try await destination.delete(item.path, isDirectory: item.isDirectory)
        }
        return state.finish(started)
    }

    /// Makes the destination's root (and the staging folder) in a task of its own; nil in a dry run.
    private func startMakingRoot() -> Task<(any Error)?, Never>? {
        guard !options.dryRun else { return nil }
        return Task { [destination, isStaged, stagingFolder] in
            do {
                try await destination.makeDirectory(.root)
                if isStaged {
                    try FileManager.default.createDirectory(atPath: stagingFolder, withIntermediateDirectories: true)
                }
                return nil
            } catch {
                return error
            }
        }
    }

    /// Where the plan is, between the entries of the merged listings.
    struct SyncPlan {
        /// Where failures and counts go.
        let state: SyncState
        /// The work under way and its bounds.
        var bounds: SyncWorkBounds
        /// Destination entries the source lacks.
        var deletions = DeletionList()
        /// A source folder whose contents cannot be synced (its creation failed, or it was refused).
        var skipSource: SyncPath?
        /// The folders being made in this run that hold the current entry, outermost first: what is inside one
        /// waits for it to be made (and is left out when it could not be).
        var making: [MadeFolder] = []
    }

    /// Plans one entry of the merged listings: `item` from the source (nil: only the destination has it), over
    /// `existing` in the destination.
    private func plan(_ item: SyncItem?, over existing: SyncItem?, in plan: inout SyncPlan, group: inout TaskGroup<Int>)
        async
    {
        guard let item else {
            if let existing { plan.deletions.add(existing, enabled: options.deleteExtraneous) }
            return
        }
        let state = plan.state
        if let skip = plan.skipSource, item.path.isInside(skip) {
            if !item.isDirectory { state.leftOut(below: skip) }
            return
        }
        while let last = plan.making.last, !item.path.isInside(last.path) { await leave(&plan, group: &group) }
        if plan.making.last?.gate.made == false {
            plan.skipSource = plan.making.removeLast().path
            if !item.isDirectory { state.leftOut(below: plan.skipSource!) }
            return
        }
        if refuses(item, over: existing, state: state) {
            if item.isDirectory { plan.skipSource = item.path }
            return
        }
        if item.isDirectory {
            if existing == nil { await planFolder(item, in: &plan, group: &group) }
            return
        }
        await planFile(item, over: existing, in: &plan, group: &group)
    }

    /// Refuses an entry that is not synced at all, telling `state` why: a name the rule refuses (in the plan too: a
    /// dry run must not plan what the real run refuses), or a file on one side and a folder on the other.
    private func refuses(_ item: SyncItem, over existing: SyncItem?, state: SyncState) -> Bool {
        if SyncPath.problem(withName: item.path.name) != nil {
            state.fail(
                item.path.description, item.isDirectory ? "create the folder" : transferVerb,
                RemotePathError.invalidComponent(item.path.name))
            return true
        }
        if let existing, existing.kind != item.kind {
            state.fail(
                item.path.description, "sync",
                "a \(item.kind.rawValue) on one side and a \(existing.kind.rawValue) on the other: left alone")
            return true
        }
        return false
    }

    /// Plans a folder the destination lacks: made as work of its own once the folder holding it is, or implied by
    /// what is written inside it.
    private func planFolder(_ item: SyncItem, in plan: inout SyncPlan, group: inout TaskGroup<Int>) async {
        let state = plan.state
        let action = SyncAction(kind: .makeDirectory, path: item.path.description, bytes: 0, reason: "new")
        state.planned(action)
        let gate = SyncFolderGate()
        let outer = plan.making.last?.gate
        if destination.impliesFolders && !options.dryRun {
            // Made by what is written in it; only an empty one costs a request (``leave``).
            gate.open(true)
            plan.making.append(MadeFolder(path: item.path, gate: gate, implied: SyncImpliedFolder(action: action)))
            return
        }
        plan.making.append(MadeFolder(path: item.path, gate: gate, implied: nil))
        if options.dryRun {
            gate.open(await makeDirectory(action, item.path, state: state))
            return
        }
        await plan.bounds.add(to: &group, isCheck: true) {
            let made = await outer?.wait() ?? true
            gate.open(made ? await makeDirectory(action, item.path, state: state) : false)
        }
    }

    /// Plans a file: its machine's first step decides from the listings whether it is unchanged, sent (announced
    /// here, in listing order), or checked first; the rest runs as work once the folder holding it is made.
    private func planFile(
        _ item: SyncItem, over existing: SyncItem?, in plan: inout SyncPlan, group: inout TaskGroup<Int>
    ) async {
        let state = plan.state
        var planned = SyncFileMachine(
            source: item, destination: existing, comparison: options.comparison, dryRun: options.dryRun)
        let first = planned.begin()
        let machine = planned
        var isCheck = false
        switch first {
        case .finish(.unchanged):
            state.unchanged()
            return
        case .transfer(let reason, _), .checkSendable(let reason, _):
            state.planned(transferAction(item, reason: reason))
        default:
            isCheck = true
        }
        let implied = existing == nil ? plan.making.compactMap(\.implied) : []
        // Whatever is planned inside a folder whose existence it implies spares that folder its marker.
        for folder in plan.making.reversed() {
            guard let implied = folder.implied, !implied.isFilled else { break }
            implied.isFilled = true
        }
        let folder = plan.making.last?.gate
        let folderPath = plan.making.last?.path ?? .root
        // Work that waited for a slot while the token was refused is not started, nor work in a folder that could
        // not be made (its failure is told once, for the folder).
        await plan.bounds.add(to: &group, isCheck: isCheck, size: item.size) {
            guard await folder?.wait() ?? true else {
                state.leftOut(below: folderPath)
                return
            }
            guard state.refusal == nil else { return }
            if await sync(machine, from: first, state: state) {
                for folder in implied { folder.contentWritten(state: state) }
            }
        }
    }

    /// A folder this run makes, with what waits for it.
    struct MadeFolder {
        var path: SyncPath
        var gate: SyncFolderGate
        /// Set where the destination implies folders: made by what is written inside.
        var implied: SyncImpliedFolder?
    }

    /// The plan has gone past the innermost folder being made: where folders are implied and nothing was planned
    /// in it, it is an empty folder, kept by a marker (which fills the folders holding it).
    private func leave(_ plan: inout SyncPlan, group: inout TaskGroup<Int>) async {
        let folder = plan.making.removeLast()
        guard let implied = folder.implied, !implied.isFilled else { return }
        let outer = plan.making.compactMap(\.implied)
        for holder in outer { holder.isFilled = true }
        let state = plan.state
        await plan.bounds.add(to: &group, isCheck: true) {
            if await makeDirectory(implied.action, folder.path, state: state) {
                for holder in outer { holder.contentWritten(state: state) }
            }
        }
    }

    // MARK: Steps

    /// Makes a folder the plan announced (``SyncState/planned(_:)`` in listing order, by the caller).
    private func makeDirectory(_ action: SyncAction, _ path: SyncPath, state: SyncState) async -> Bool {
        guard !options.dryRun else {
            state.directoryCreated(action)
            return true
        }
        // The disk is full: not made, and the files in it are counted as not tried.
        if state.isDiskFull { return true }
        var attempt = 0
        while true {
            do {
                try await destination.makeDirectory(path)
                state.serverAnswered()
                state.directoryCreated(action)
                return true
            } catch {
                if await state.waitForServer(after: error, attempt: attempt, limit: options.serverWaitLimit) {
                    attempt += 1
                    continue
                }
                state.fail(path.description, "create the folder", error)
                return false
            }
        }
    }

    /// A file into this machine is a download; every other transfer is told as an upload.
    func transferAction(_ item: SyncItem, reason: String) -> SyncAction {
        let kind: SyncAction.Kind = destination.isLocalDisk && !source.isLocalDisk ? .download : .upload
        return SyncAction(kind: kind, path: item.path.description, bytes: item.size, reason: reason)
    }

    var transferVerb: String { destination.isLocalDisk ? "download" : source.isLocalDisk ? "upload" : "copy" }

    /// The item with its exact time, asked of its side when the listing's is not, as the destination keeps it.
    func exactSource(_ item: SyncItem) async throws -> SyncItem {
        item.isTimeExact ? item : destination.storable(try await source.exactItem(item))
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
            state.skipDeletions("\(CountFormat.string(count, "entry", "entries")) not deleted: \(reason)")
            return
        }
        if let limit = options.maxDelete, count > limit {
            state.skipDeletions(
                "\(CountFormat.string(count, "entry", "entries")) would be deleted, more than the limit of \(limit): nothing was deleted"
            )
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
actor RemoteStream {
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
                // A listing that failed or was refused (a cursor that never moves) cannot be planned from: the sync
                // stops at once, what is under way with it.
                state.stop(error)
                return nil
            }
            guard let result else {
                if outOfOrder > 1 {
                    state.fail(
                        "", "list the remote folder", "\(outOfOrder - 1) more entries listed out of order: skipped")
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
                    state.fail(
                        item.path.description, "list the remote folder",
                        "listed twice (a file and a folder of the same name?): skipped")
                    continue
                }
                if let previous, !(previous < item.path) {
                    // Reported once with a count: a server repeating itself must not grow the report without end.
                    outOfOrder += 1
                    if outOfOrder == 1 {
                        state.fail(
                            item.path.description, "list the remote folder",
                            "the server listed it out of order: skipped")
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
package enum SyncRootError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A file is where the folder should be.
    case notAFolder(path: String)
    /// The source folder does not exist (on this machine, or on a remote).
    case missing(path: String, onThisMachine: Bool)

    /// A one-line message.
    package var description: String {
        switch self {
        case .notAFolder(let path): "\(path): is a file, not a folder"
        case .missing(let path, _): "\(path): no such folder"
        }
    }
}
