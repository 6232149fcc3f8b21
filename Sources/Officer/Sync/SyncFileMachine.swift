import FileModel
import Transfer

/// The rules of one file of a sync, as a value: compare (the listings, else the exact times, else the checksums),
/// transfer (through the receiving side, which verifies the bytes before they take their name), give the time
/// where only the time differs, and record what happened. An event in (the times or checksums asked, the file
/// received, a failure, the server back), the next step out. No I/O, no clock, no lock: the driver
/// (`SyncEngine.sync(_:)`) asks the sides and records in the sync's state, so every rule is checked in tests by
/// tables of events alone.
///
/// Rules: a file the destination lacks is sent; with both, where the times are not exact on a side and the size
/// leaves the time to decide, the exact times are asked first; the comparison then says send, leave, or (equal
/// sizes under `--checksum`) ask the checksums, which differ (or are of other functions) and send, or match and at
/// most set the time; a server without checksums is compared by size and time; a dry run only checks the file could
/// be sent; a transfer that fails because the server went away waits for it and goes again (it resumes), as often
/// as the sync's outage rule allows.
struct SyncFileMachine: Sendable {
    /// What the driver does next.
    enum Action: Equatable, Sendable {
        /// Ask each side for the exact time its listing lacked: ``Event/exactTimes(source:destination:)``.
        case askExactTimes
        /// Ask both sides' checksums: ``Event/checksums(source:destination:)`` or ``Event/checksumsNotOffered``.
        case askChecksums
        /// Send ``source`` over ``destination`` (`announce`: the plan has not told it yet): ``Event/received(bytes:checked:)``,
        /// ``Event/deferred(localPath:)`` or ``Event/failed(serverGone:)``.
        case transfer(reason: String, announce: Bool)
        /// A dry run: check ``source`` could be sent (an image `--resize` cannot prepare is refused in the plan as
        /// well): ``Event/sendable`` or ``Event/failed(serverGone:)``.
        case checkSendable(reason: String, announce: Bool)
        /// Wait for the server, the `attempt`th time in this file: ``Event/serverBack(_:)``.
        case waitForServer(attempt: Int)
        /// Give the destination the source's time (same content): ``Event/timeSet`` or ``Event/failed(serverGone:)``.
        case setTime
        /// The file is done with; record `outcome`.
        case finish(Outcome)
    }

    /// How a file ended.
    enum Outcome: Equatable, Sendable {
        /// Nothing to do.
        case unchanged
        /// Sent for `reason`; `bytes` went; for bytes fetched here, what they were checked against.
        case transferred(reason: String, bytes: Int64, checked: ContentCheck?)
        /// Same content: the time was set.
        case timeSet
        /// Held back by the receiving side (a local file still being written).
        case deferred(localPath: String)
        /// Failed at `step` (the last error is the failure).
        case failed(Step)
    }

    /// What a failure was doing.
    enum Step: Equatable, Sendable {
        case compare, checksum, transfer
    }

    /// What happened.
    enum Event: Equatable, Sendable {
        /// The items with their exact times.
        case exactTimes(source: SyncItem, destination: SyncItem?)
        /// Both sides' checksums.
        case checksums(source: SyncChecksum, destination: SyncChecksum)
        /// A side does not offer checksums.
        case checksumsNotOffered
        /// The file is in place: `bytes` went; what fetched bytes were checked against.
        case received(bytes: Int64, checked: ContentCheck?)
        /// The receiving side held the file back.
        case deferred(localPath: String)
        /// The dry run's check passed.
        case sendable
        /// The time is set.
        case timeSet
        /// The step failed; `serverGone`: the network's failure (the server went away), worth waiting for.
        case failed(serverGone: Bool)
        /// The wait for the server ended: it answers again (true), or the sync stops (false).
        case serverBack(Bool)
    }

    /// The source's file, with its exact time once asked.
    private(set) var source: SyncItem
    /// What the destination holds there, if anything.
    private(set) var destination: SyncItem?
    /// How files are compared.
    let comparison: SyncComparison
    /// Plan only.
    let dryRun: Bool

    private var serverWaits = 0
    private var phase = Phase.idle

    private enum Phase: Equatable {
        case idle, askingTimes, askingChecksums
        case transferring(reason: String)
        case waitingForServer(reason: String)
        case settingTime, ended
    }

    /// A machine for `source` over `destination`.
    init(source: SyncItem, destination: SyncItem?, comparison: SyncComparison, dryRun: Bool) {
        self.source = source
        self.destination = destination
        self.comparison = comparison
        self.dryRun = dryRun
    }

    /// The first step, decided from the listings alone: a transfer here is announced by the plan itself (in
    /// listing order), ``Outcome/unchanged`` costs nothing, and asking times or checksums is a check.
    mutating func begin() -> Action {
        guard let destination else { return send(reason: "new", announce: false) }
        // A prepared image's size differs from its source's by design: the time decides.
        let ignoringSize = source.sourceName != nil
        let timesExact = source.isTimeExact && destination.isTimeExact
        if !timesExact, ignoringSize || (source.size == destination.size && comparison != .sizeOnly) {
            phase = .askingTimes
            return .askExactTimes
        }
        return compared(announce: false)
    }

    /// The step after `event`.
    mutating func handle(_ event: Event) -> Action {
        switch (phase, event) {
        case (.askingTimes, .exactTimes(let source, let destination)):
            self.source = source
            self.destination = destination
            return compared(announce: true)
        case (.askingChecksums, .checksums(let mine, let theirs)):
            if mine.algorithm != theirs.algorithm || mine != theirs {
                return send(reason: "changed (checksum)", announce: true)
            }
            guard let destination, abs(source.mtime - destination.mtime) >= SyncComparison.timeTolerance else {
                return ended(.finish(.unchanged))
            }
            phase = .settingTime
            return .setTime
        case (.askingChecksums, .checksumsNotOffered):
            // Size and time decide, as without --checksum.
            guard let destination, SyncComparison.sizeAndTime.needsTransfer(source, over: destination) == true else {
                return ended(.finish(.unchanged))
            }
            return send(reason: "changed", announce: true)
        case (.transferring(let reason), .received(let bytes, let checked)):
            return ended(.finish(.transferred(reason: reason, bytes: bytes, checked: checked)))
        case (.transferring(let reason), .sendable):
            return ended(.finish(.transferred(reason: reason, bytes: source.size, checked: nil)))
        case (.transferring, .deferred(let path)):
            return ended(.finish(.deferred(localPath: path)))
        case (.transferring(let reason), .failed(let serverGone)):
            guard serverGone, !dryRun else { return ended(.finish(.failed(.transfer))) }
            phase = .waitingForServer(reason: reason)
            return .waitForServer(attempt: serverWaits)
        case (.waitingForServer(let reason), .serverBack(let back)):
            guard back else { return ended(.finish(.failed(.transfer))) }
            serverWaits += 1
            return send(reason: reason, announce: false)
        case (.settingTime, .timeSet):
            return ended(.finish(.timeSet))
        case (.askingTimes, .failed):
            return ended(.finish(.failed(.compare)))
        case (.askingChecksums, .failed), (.settingTime, .failed):
            return ended(.finish(.failed(.checksum)))
        default:
            return ended(.finish(.failed(.compare)))
        }
    }

    // MARK: Rules

    /// What the comparison of the two items says.
    private mutating func compared(announce: Bool) -> Action {
        guard let destination else { return send(reason: "new", announce: announce) }
        switch comparison.needsTransfer(source, over: destination, ignoringSize: source.sourceName != nil) {
        case true?: return send(reason: "changed", announce: announce)
        case false?: return ended(.finish(.unchanged))
        case nil:
            phase = .askingChecksums
            return .askChecksums
        }
    }

    private mutating func send(reason: String, announce: Bool) -> Action {
        phase = .transferring(reason: reason)
        return dryRun
            ? .checkSendable(reason: reason, announce: announce) : .transfer(reason: reason, announce: announce)
    }

    private mutating func ended(_ action: Action) -> Action {
        phase = .ended
        return action
    }
}
