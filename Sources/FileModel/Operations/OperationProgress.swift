/// How far one transfer (or a batch of them) is, computed once, for every display: an app binds to it, the
/// CLI draws it. Rates and times left count only the bytes moved in this run: bytes an earlier run left in
/// place (a resumed download, an upload the server already had part of) are `resumedBytes`, never speed.
public struct OperationProgress: Sendable, Equatable {
    /// How the work stands.
    ///
    /// Cases may be added in a later version: a `switch` over it keeps a `default`.
    public enum State: String, Sendable, Equatable {
        /// Under way.
        case running
        /// Every byte is in and being checked before it takes its name (``TransferEvent/verifying``).
        case verifying
        /// Finished as asked.
        case completed
        /// Stopped by a failure; what is in place stays for a rerun.
        case failed
        /// Stopped on purpose (Ctrl-C, a cancelled task); a rerun continues.
        case cancelled
        /// An upload stopped on purpose with what the remote confirmed kept there: the same call continues it.
        case paused
    }

    /// Bytes in place now: those resumed plus those moved in this run.
    public var doneBytes: Int64
    /// Bytes in all, when known.
    public var totalBytes: Int64?
    /// Bytes already in place before this run began.
    public var resumedBytes: Int64
    /// Bytes per second moved in this run, over the last few seconds; nil until it can be told.
    public var bytesPerSecond: Double?
    /// Seconds since the work began.
    public var elapsedSeconds: Double
    /// Files finished as asked, of a batch (0 or 1 for one file).
    public var filesDone: Int
    /// Files that failed or were stopped.
    public var filesFailed: Int
    /// Files in the batch, when known.
    public var filesTotal: Int
    /// How the work stands.
    public var state: State

    /// Bytes moved over the network in this run.
    public var movedBytes: Int64 { max(0, doneBytes - resumedBytes) }

    /// Done over total (0…1), when the total is known.
    public var fraction: Double? {
        guard let totalBytes else { return nil }
        return totalBytes == 0 ? 1 : min(1, Double(doneBytes) / Double(totalBytes))
    }

    /// Seconds left at the current rate, while running with a known total.
    public var secondsLeft: Double? {
        guard state == .running, let totalBytes, let bytesPerSecond, bytesPerSecond > 0 else { return nil }
        return Double(max(0, totalBytes - doneBytes)) / bytesPerSecond
    }

    /// The average rate of this run's bytes over its whole time: what a finished transfer reports.
    public var averageBytesPerSecond: Double? {
        elapsedSeconds > 0 ? Double(movedBytes) / elapsedSeconds : nil
    }

    /// Nothing yet.
    package init(
        doneBytes: Int64 = 0, totalBytes: Int64? = nil, resumedBytes: Int64 = 0, bytesPerSecond: Double? = nil,
        elapsedSeconds: Double = 0,
        filesDone: Int = 0, filesFailed: Int = 0, filesTotal: Int = 1, state: State = .running
    ) {
        self.doneBytes = doneBytes
        self.totalBytes = totalBytes
        self.resumedBytes = resumedBytes
        self.bytesPerSecond = bytesPerSecond
        self.elapsedSeconds = elapsedSeconds
        self.filesDone = filesDone
        self.filesFailed = filesFailed
        self.filesTotal = filesTotal
        self.state = state
    }
}
