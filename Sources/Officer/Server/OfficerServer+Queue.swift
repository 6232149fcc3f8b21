import FileModel
import Foundation
import HTTP
import Journal
import Transfer

/// Why a write cannot be queued.
package enum QueueError: Error, Equatable, Sendable, CustomStringConvertible, CategorizedError {
    /// The write replaces or removes a path whose version this client never saw (no listing of its folder in
    /// the cache): replaying it could clobber a change it knows nothing of.
    case unknownVersion(RemotePath)
    /// The write needs a path that was not there when last seen.
    case absentWhenLastSeen(RemotePath)
    /// A queued write of that number does not exist.
    case noSuchItem(Int64)
    /// The front door keeps no journal.
    case noJournal
    /// The write contradicts one still queued (moves or removes what it removes, makes a name it makes).
    case contradicts(RemotePath, earlier: String)
    /// Another replay (in this process or another) is sending the queue; it sends these changes too.
    case replayRunning
    /// The change is on a server other than the configured one, whose queue this journal does not keep.
    case otherServer(String)

    /// A one-line message.
    package var description: String {
        switch self {
        case .unknownVersion(let path):
            "\(path): its version on the server is unknown here (no listing of its folder in the cache), so the change cannot be queued safely"
        case .absentWhenLastSeen(let path): "\(path): not there when its folder was last listed"
        case .noSuchItem(let id): "no queued write #\(id)"
        case .noJournal: "no journal is configured, so nothing can be queued"
        case .contradicts(let path, let earlier):
            "\(path): the queue already holds `\(earlier)`; this change would fail after it (see officer-files queue list)"
        case .replayRunning: "another replay is sending the queued changes"
        case .otherServer(let location):
            "\(location): only changes to the configured server are queued, and this remote is another server"
        }
    }

    /// What kind of failure this is.
    package var category: ErrorCategory {
        switch self {
        case .unknownVersion, .noJournal, .contradicts, .otherServer: .refused
        case .replayRunning: .conflict
        case .absentWhenLastSeen, .noSuchItem: .notFound
        }
    }
}

/// What replaying the queue did with one write.
package enum QueueEvent: Sendable, Equatable {
    /// Applied now.
    case applied(TransferJournal.QueuedItem)
    /// Already on the server as intended (an earlier replay applied it and stopped before marking it).
    case foundApplied(TransferJournal.QueuedItem)
    /// Not applied: the server no longer has what the write expected; the note says what changed.
    case conflict(TransferJournal.QueuedItem)
    /// Not applied: it touches a path of an earlier write that is held.
    case blocked(TransferJournal.QueuedItem)
}

/// The outcome of one replay.
package struct QueueReplaySummary: Sendable, Equatable {
    /// Writes applied now, or found applied.
    package var applied = 0
    /// Writes held because what they expected changed on the server.
    package var conflicts = 0
    /// Writes held behind a held one.
    package var blocked = 0
    /// Nothing was replayed: another replay was running (it applies the writes).
    package var alreadyRunning = false
}

extension OfficerServer {
    /// What `path` was when this front door last listed its folder (the cached listing), else what it last wrote
    /// there itself; nil when neither.
    package func lastSeen(_ path: RemotePath) throws -> PathState? {
        if path.isRoot { return .folder(mtime: 0) }
        guard let listing = try cachedListing(path.parent)?.listing else {
            return lastWritten(path).map(PathState.init)
        }
        guard let entry = listing.entries.first(where: { $0.name == path.name }) else { return .absent }
        return PathState(entry)
    }

    /// Whether a change queued now puts what it sends, moves or copies into `destination` (true) or at it (false),
    /// as the server will have it when the change is replayed: written as a folder (`x/`, the root), a folder once
    /// the writes queued before it ran (a queued `mkdir`, or a `put -p` below it), else as it was last listed.
    package func queuedDestinationIsFolder(_ destination: RemotePath) throws -> Bool {
        if destination.namesFolder || destination.isRoot { return true }
        let earlier = try queuedWrites().map(\.write)
        if let projection = QueuedWrite.projection(of: destination.path, root: destination.root, after: earlier) {
            return projection == .folder
        }
        if case .folder = try lastSeen(destination) { return true }
        return false
    }

    /// Keeps a write in the journal to replay when the server answers (``replayQueue()``), with what it expects
    /// of each path it touches: a replaced, moved or removed path must still be the version last seen (from the
    /// cached listing of its folder; ``QueueError/unknownVersion(_:)`` when there is none), a new name must still
    /// be free. An upload sends its local file as it is at replay time.
    @discardableResult
    package func enqueue(_ write: QueuedWrite) throws -> TransferJournal.QueuedItem {
        guard let journal = try journal else { throw QueueError.noJournal }
        var write = write
        func path(_ text: String) throws -> RemotePath { try RemotePath(root: write.root, path: text) }
        if write.kind != .remove {
            try Location.requireStorableNames(.officer(try path(write.destination ?? write.path)), all: write.parents)
        }
        if let (contradicted, earlier) = write.contradiction(after: try journal.queuedWrites().map(\.write)) {
            throw QueueError.contradicts(try path(contradicted), earlier: earlier.summary)
        }
        func seen(_ text: String, mustExist: Bool) throws -> PathState {
            let remote = try path(text)
            guard let state = try lastSeen(remote) else { throw QueueError.unknownVersion(remote) }
            if mustExist, state == .absent { throw QueueError.absentWhenLastSeen(remote) }
            return state
        }
        var expectations: [PathExpectation] = []
        switch write.kind {
        case .makeFolder: break
        case .upload:
            expectations.append(
                PathExpectation(
                    path: write.path, state: write.overwrite ? try seen(write.path, mustExist: false) : .absent))
        case .move, .copy:
            let destination = write.destination ?? write.path
            expectations.append(PathExpectation(path: write.path, state: try seen(write.path, mustExist: true)))
            expectations.append(
                PathExpectation(
                    path: destination, state: write.overwrite ? try seen(destination, mustExist: false) : .absent))
        case .remove:
            expectations.append(PathExpectation(path: write.path, state: try seen(write.path, mustExist: true)))
        }
        write.expectations = expectations
        let id = try journal.enqueue(write)
        return TransferJournal.QueuedItem(
            id: id, created: Date().timeIntervalSince1970, write: write, state: .pending, note: nil)
    }

    /// Applies a change now with `apply`, or keeps `write` for ``replayQueue()`` when this front door is offline or
    /// `apply` fails because the server cannot be reached (a network error): nil when applied, else the queued
    /// item. Any other failure is thrown as it is.
    /// `write` is asked for only when the change is queued (its placement reads what was last seen).
    package func applyOrQueue(
        _ write: () throws -> QueuedWrite, apply: () async throws -> Void
    ) async throws -> TransferJournal.QueuedItem? {
        if isOffline { return try enqueue(try write()) }
        do {
            try await apply()
            return nil
        } catch  where queues(after: error) {
            return try enqueue(try write())
        }
    }

    /// True when a write that failed with `error` is one to queue: offline, or the server could not be reached.
    package func queues(after error: any Error) -> Bool {
        isOffline || ErrorCategory.of(error) == .network
    }

    /// Applies `write` now as ``replayQueue()`` would, or queues it when the server cannot be reached (see
    /// ``applyOrQueue(_:apply:)``); a write whose expectations fail at once is not queued.
    package func applyOrQueue(_ write: QueuedWrite) async throws -> TransferJournal.QueuedItem? {
        try await applyOrQueue({ write }, apply: { try await self.perform(write) })
    }

    /// The queued writes not yet applied, oldest first (pending, held and blocked).
    package func queuedWrites() throws -> [TransferJournal.QueuedItem] {
        guard let journal = try journal else { return [] }
        return try journal.queuedWrites()
    }

    /// Forgets a queued write (it will not be applied).
    package func dropQueuedWrite(id: Int64) throws {
        guard let journal = try journal, try journal.dropQueued(id) else { throw QueueError.noSuchItem(id) }
    }

    /// Replays the queued writes in order. For each: a write already on the server as intended is marked done
    /// (so a replay stopped halfway never applies anything twice); one whose expectations no longer hold (the
    /// file changed or vanished, the name was taken) is held as a conflict, and later writes touching the same
    /// paths are held behind it, as is one the server refuses when it is applied (with the server's reason);
    /// anything else is applied and marked done. Held writes are tried again on the
    /// next replay. A network failure stops the replay (the rest stays queued). One replay runs at a time: while
    /// another (in any process) runs, this one does nothing and says so (``QueueReplaySummary/alreadyRunning``).
    package func replayQueue() -> ProgressOperation<QueueEvent, QueueReplaySummary, any Error> {
        ProgressOperation { report in
            if self.isOffline { throw FrontDoorRefusal.needsNetwork("replaying the queue") }
            guard let journal = try self.journal else { return QueueReplaySummary() }
            var summary = QueueReplaySummary()
            guard let claim = journal.claimQueueReplay() else {
                summary.alreadyRunning = true
                return summary
            }
            defer { withExtendedLifetime(claim) {} }
            var held: [QueuedWrite] = []
            for var item in try journal.queuedWrites() {
                try Task.checkCancellation()
                if let blocker = held.first(where: { $0.overlaps(item.write) }) {
                    item.state = .blocked
                    item.note = "waits for: \(blocker.summary)"
                    try journal.setQueueState(item.id, .blocked, note: item.note)
                    held.append(item.write)
                    summary.blocked += 1
                    report(.blocked(item))
                    continue
                }
                switch try await self.replay(item.write) {
                case .foundApplied:
                    try journal.setQueueState(item.id, .done)
                    item.state = .done
                    summary.applied += 1
                    report(.foundApplied(item))
                case .applied:
                    try journal.setQueueState(item.id, .done)
                    item.state = .done
                    summary.applied += 1
                    report(.applied(item))
                case .conflict(let why):
                    item.state = .conflict
                    item.note = why
                    try journal.setQueueState(item.id, .conflict, note: why)
                    held.append(item.write)
                    summary.conflicts += 1
                    report(.conflict(item))
                }
            }
            try journal.pruneDoneQueued()
            return summary
        }
    }

    private enum ReplayOutcome {
        case applied
        case foundApplied
        case conflict(String)
    }

    /// The path's state on the server now.
    private func currentState(_ path: RemotePath) async throws -> PathState {
        guard let entry = try await statIfExists(path) else { return .absent }
        return PathState(entry)
    }

    private func replay(_ write: QueuedWrite) async throws -> ReplayOutcome {
        let source = try RemotePath(root: write.root, path: write.path)
        let destination = try write.destination.map { try RemotePath(root: write.root, path: $0) }
        // Each path is asked of the server once per write: the applied check and the expectations share answers.
        var asked: [String: PathState] = [:]
        func currentState(_ path: RemotePath) async throws -> PathState {
            if let known = asked[path.path] { return known }
            let state = try await self.currentState(path)
            asked[path.path] = state
            return state
        }
        // Found applied: the server already shows the intended outcome.
        switch write.kind {
        case .makeFolder:
            if case .folder = try await currentState(source) { return .foundApplied }
        case .remove:
            if try await currentState(source) == .absent { return .foundApplied }
        case .upload:
            guard let local = write.local, let size = Self.fileSize(local),
                let mtime = LocalFiles.modificationTime(of: local)
            else {
                return .conflict("\(write.local ?? "the local file") no longer exists here")
            }
            if try await currentState(source).matches(.file(size: size, mtime: mtime)) { return .foundApplied }
        case .move, .copy:
            if let destination, let expected = write.expectations.first(where: { $0.path == write.path })?.state {
                let there = try await currentState(destination)
                if there.matches(expected) {
                    if write.kind == .copy { return .foundApplied }
                    let left = try await currentState(source)
                    if left == .absent { return .foundApplied }
                }
            }
        }
        // What the write expects must still hold.
        for expectation in write.expectations {
            let path = try RemotePath(root: write.root, path: expectation.path)
            let now = try await currentState(path)
            if !now.matches(expectation.state) {
                return .conflict("\(path) is \(now) now; when queued it was \(expectation.state)")
            }
        }
        return try await apply(write)
    }

    /// Performs a write on the server. One the server refuses (its folder is gone, a name is taken, the local
    /// file cannot be read) is held with the server's reason, so the writes after it still go; a failure that
    /// says nothing of this write (the network, the token, the server's own trouble, a cancel) stops the replay.
    @discardableResult
    private func apply(_ write: QueuedWrite) async throws -> ReplayOutcome {
        do {
            try await perform(write)
            return .applied
        } catch  where [.notFound, .conflict, .refused, .invalidInput, .localFile].contains(ErrorCategory.of(error)) {
            return .conflict(report(error).localizedDescription)
        }
    }

    private func perform(_ write: QueuedWrite) async throws {
        let source = try RemotePath(root: write.root, path: write.path)
        let destination = try write.destination.map { try RemotePath(root: write.root, path: $0) }
        switch write.kind {
        case .makeFolder: _ = try await makeFolder(source, parents: write.parents)
        case .remove: _ = try await remove(source, recursive: write.recursive)
        case .move: _ = try await move(source, to: destination ?? source, overwrite: write.overwrite)
        case .copy: _ = try await copy(source, to: destination ?? source, overwrite: write.overwrite)
        case .upload:
            var request = UploadRequest()
            request.overwrite = write.overwrite
            request.createMissing = write.parents
            _ = try await upload(write.local ?? "", to: source, request: request).value
        }
    }

    private static func fileSize(_ path: String) -> Int64? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            attributes[.type] as? FileAttributeType == .typeRegular
        else { return nil }
        return (attributes[.size] as? NSNumber)?.int64Value
    }
}
