import FileModel
import Foundation
import Journal
import Officer

/// `--queue` on the commands that change the server: when it cannot be reached (or with `--offline`), the
/// change is kept in the journal for `queue run` instead of failing.
enum WriteQueueing {
    /// The option every such command offers.
    static let option = OptionSpec(
        ["--queue"],
        help: "if the server cannot be reached (or with --offline), keep the change for 'officer-files queue run'")

    /// True when the command should queue without trying: `--queue` and offline.
    static func queuesAtOnce(_ parsed: ParsedCommand, _ files: OfficerFiles) -> Bool {
        parsed.flag("queue") && files.isOffline
    }

    /// True when `--queue` was given and `error` is one the library queues after.
    static func shouldQueue(after error: any Error, _ parsed: ParsedCommand, _ files: OfficerFiles) -> Bool {
        parsed.flag("queue") && files.queues(after: error)
    }

    /// Runs `work`; with `--queue`, queues `write()` instead when offline or when the server cannot be reached.
    static func perform(
        _ parsed: ParsedCommand, _ context: CommandContext, _ files: OfficerFiles, write: () throws -> QueuedWrite,
        work: () async throws -> Void
    ) async throws {
        guard parsed.flag("queue") else { return try await work() }
        if let item = try await files.applyOrQueue(write, apply: work) {
            say(item, context, offline: files.isOffline)
        }
    }

    /// The same for a change the library places and queues: only a remote whose changes can be queued
    /// (``RemoteFeatures/queuedWrites``) takes `--queue`.
    static func perform(
        _ parsed: ParsedCommand, _ context: CommandContext, _ files: OfficerFiles, change: FileChange,
        work: () async throws -> Void
    ) async throws {
        guard parsed.flag("queue") else { return try await work() }
        guard try files.fixedFeatures(of: change.location).contains(.queuedWrites) else {
            throw CLIError.usage(
                "--queue: \(change.location) is not on an Officer server; only an Officer server's changes are queued")
        }
        try await perform(parsed, context, files, write: { try files.queuedWrite(for: change) }, work: work)
    }

    /// Keeps `write` and says so.
    static func queue(_ write: QueuedWrite, _ files: OfficerFiles, _ context: CommandContext, offline: Bool) throws {
        say(try files.enqueue(write), context, offline: offline)
    }

    static func say(_ item: TransferJournal.QueuedItem, _ context: CommandContext, offline: Bool) {
        let write = item.write
        if context.global.json {
            context.printJSON(QueuedRecord(item, remote: nil))
        } else if !context.global.quiet {
            context.console.message(
                "queued (\(offline ? "offline" : "server unreachable")): #\(item.id) \(write.summary)")
        }
    }
}
