import FileModel
import Journal

/// One of the server's jobs in JSON (`jobs`, `extract`, `transcode`, `fetch`): schema `job`.
struct JobRecord: Encodable, Sendable {
    /// The server's id; absent for work the server did within its answer (nothing to follow).
    var id: String?
    /// `extract`, `transcode`, `git-clone`, `download-video`, …
    var kind: String
    /// The file it works on (`officer:/a.zip`), when it works on one.
    var path: String?
    /// The address it fetches, for a fetch.
    var source: String?
    /// `queued`, `running`, `done`, `failed` or `cancelled`.
    var state: String
    var created: JSONTime?
    var updated: JSONTime?
    var progress: Progress
    /// What it made, as locations.
    var made: [String]
    var error: Failure?

    struct Progress: Encodable, Sendable {
        var done: Double?
        var total: Double?
        /// `bytes`, `seconds` or `percent`.
        var unit: String?
        var message: String?
    }

    struct Failure: Encodable, Sendable {
        var code: String
        var message: String
    }

    init(_ job: Job) {
        id = job.id.isEmpty ? nil : job.id
        kind = job.kind
        let target = job.target.flatMap { $0.isEmpty ? nil : $0 }
        if let target, target.hasPrefix("/") { path = job.shownTarget } else { source = target }
        state = job.state.rawValue
        created = JSONTime(job.created)
        updated = JSONTime(job.updated)
        progress = Progress(
            done: job.progress.done, total: job.progress.total, unit: job.progress.unit, message: job.progress.message)
        made = job.createdEntries.map { job.place($0.path)?.description ?? $0.path }
        error = job.error.map { Failure(code: $0.code, message: $0.message) }
    }
}

/// A change queued for the server in JSON (`--queue`, `queue list`): schema `queued`.
struct QueuedRecord: Encodable, Sendable {
    var id: Int64
    /// `mkdir`, `put`, `mv`, `cp` or `rm`.
    var operation: String
    /// What `mkdir` makes and `rm` removes.
    var path: String?
    /// What `put` sends (a local path), or what `mv` and `cp` move.
    var source: String?
    /// Where `put`, `mv` and `cp` put it.
    var destination: String?
    /// `pending`, `conflict`, `blocked` or `done`.
    var state: String
    var created: JSONTime
    var note: String?

    init(_ item: TransferJournal.QueuedItem, remote: String?) {
        id = item.id
        let write = item.write
        operation = write.kind.rawValue
        func place(_ path: String) -> String {
            (try? RemotePath(root: write.root, path: path, remote: remote))?.description ?? path
        }
        switch write.kind {
        case .makeFolder, .remove: path = place(write.path)
        case .upload:
            source = write.local
            destination = place(write.path)
        case .move, .copy:
            source = place(write.path)
            destination = write.destination.map(place)
        }
        state = item.state.rawValue
        created = JSONTime(item.created)
        note = item.note
    }
}

/// What `queue run` did: schema `queue-run`.
struct QueueRunRecord: Encodable, Sendable {
    var applied: Int
    var conflicts: Int
    var blocked: Int
    /// True when another run was already applying the queue (this one did nothing).
    var alreadyRunning: Bool
}

/// A queued change dropped (`queue drop`): schema `dropped`.
struct DroppedRecord: Encodable, Sendable {
    var id: Int64
}
