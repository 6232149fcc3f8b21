import FileModel
import Foundation
import Transfer

extension SyncEngine {
    /// Runs one file's ``SyncFileMachine`` from `first` (the step ``SyncFileMachine/begin()`` gave the plan): asks
    /// the sides what it asks, sends, and records how the file ended in `state`. True when the file is in place.
    @discardableResult
    func sync(_ machine: SyncFileMachine, from first: SyncFileMachine.Action, state: SyncState) async -> Bool {
        var machine = machine
        var action = first
        var lastError: (any Error)?
        while true {
            let event: SyncFileMachine.Event
            do {
                switch action {
                case .finish(let outcome):
                    record(outcome, of: machine.source, error: lastError, state: state)
                    if case .transferred = outcome { return true }
                    return false
                case .waitForServer(let attempt):
                    let back =
                        if let lastError {
                            await state.waitForServer(
                                after: lastError, attempt: attempt, limit: options.serverWaitLimit)
                        } else { false }
                    event = .serverBack(back)
                default:
                    guard let asked = try await perform(action, machine: machine, state: state) else { return false }
                    event = asked
                }
            } catch let deferral as SyncDeferral {
                event = .deferred(localPath: deferral.localPath)
            } catch {
                lastError = error
                event = .failed(serverGone: ErrorCategory.of(error) == .network)
            }
            action = machine.handle(event)
        }
    }

    /// Carries out one of the machine's asking or sending steps; nil when the file is not tried (the disk is full).
    private func perform(
        _ action: SyncFileMachine.Action, machine: SyncFileMachine, state: SyncState
    ) async throws -> SyncFileMachine.Event? {
        let (item, existing) = (machine.source, machine.destination)
        switch action {
        case .askExactTimes:
            let exactItem = try await exactSource(item)
            var exactExisting = existing
            if let existing, !existing.isTimeExact { exactExisting = try await destination.exactItem(existing) }
            return .exactTimes(source: exactItem, destination: exactExisting)
        case .askChecksums:
            do {
                let (mine, theirs) = try await checksums(of: item.path)
                return .checksums(source: mine, destination: theirs)
            } catch OfficerError.notOffered {
                // A server without checksums (the seed's): said once, and size and time decide.
                state.warnOnce(
                    "comparing by checksum: the server does not offer checksums of its files; comparing size and time")
                return .checksumsNotOffered
            }
        case .checkSendable(let reason, let announce):
            if announce { state.planned(transferAction(item, reason: reason)) }
            try await source.checkSendable(item)
            return .sendable
        case .transfer(let reason, let announce):
            if announce { state.planned(transferAction(item, reason: reason)) }
            // The disk is full: every next file would fail the same way, so it is counted, not tried.
            if state.isDiskFull {
                state.notTried()
                return nil
            }
            let received = try await receive(item, replacing: existing, state: state)
            return .received(bytes: received.bytes, checked: received.checked)
        case .setTime:
            state.planned(setTimeAction(item))
            if !options.dryRun { try await destination.setModificationTime(item.path, to: item.mtime) }
            return .timeSet
        case .waitForServer, .finish:
            return nil
        }
    }

    /// Both sides' checksums of `path`: the side that cannot choose its function first, the other made alike.
    private func checksums(of path: SyncPath) async throws -> (source: SyncChecksum, destination: SyncChecksum) {
        if source.isLocalDisk {
            let theirs = try await destination.checksum(path, like: nil)
            return (try await source.checksum(path, like: theirs), theirs)
        }
        let mine = try await source.checksum(path, like: nil)
        return (mine, try await destination.checksum(path, like: mine))
    }

    /// Sends `item` through the destination, which verifies fetched bytes before they take their name.
    private func receive(_ item: SyncItem, replacing existing: SyncItem?, state: SyncState) async throws
        -> SyncReceived
    {
        let label = item.path.description
        let total = item.size
        // Named after the path: a rerun finds the same staging file (and the journal its download or upload).
        let staged =
            stagingFolder + "/"
            + HexDigits.lowercase(SHA256Hasher.digest(Array(label.utf8)).prefix(16))
        // The destination gets the source's exact time, which its listing may not carry; into this machine it
        // comes with the download's answer (the local side asks for it only when the answer lacked it).
        let exact = destination.isLocalDisk ? item : try await exactSource(item)
        let received = try await destination.receive(exact, replacing: existing, from: source, staging: staged) {
            bytes in state.progress(path: label, bytes: bytes, total: total)
        }
        state.serverAnswered()
        return received
    }

    /// Records how a file ended.
    private func record(
        _ outcome: SyncFileMachine.Outcome, of item: SyncItem, error: (any Error)?, state: SyncState
    ) {
        let path = item.path.description
        switch outcome {
        case .unchanged: state.unchanged()
        case .transferred(let reason, let bytes, let checked):
            var done = transferAction(item, reason: reason)
            done.checked = checked
            state.transferred(done, bytes: bytes)
        case .timeSet: state.timeSet(setTimeAction(item))
        case .deferred(let localPath): state.deferred(localPath)
        case .failed(let step):
            let verb =
                switch step {
                case .compare: "compare"
                case .checksum: "checksum"
                case .transfer: transferVerb
                }
            state.fail(path, verb, error ?? CancellationError())
        }
    }

    private func setTimeAction(_ item: SyncItem) -> SyncAction {
        SyncAction(kind: .setTime, path: item.path.description, bytes: 0, reason: "same content")
    }
}
