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

    /// Runs `work`; with `--queue`, keeps `change` instead when offline or when the server cannot be reached (the
    /// library places and queues it): only a remote that keeps changes takes `--queue`.
    /// `queueAtOnce`: keep the change without trying it; set once one was kept because the server could not be
    /// reached, so the later changes of a batch do not each wait for the network to fail again. `write`: the kept
    /// form when it is not the change's own.
    static func perform(
        _ parsed: ParsedCommand, _ context: CommandContext, _ files: OfficerFiles, change: FileChange,
        queueAtOnce: inout Bool, write: (() throws -> QueuedWrite)? = nil, work: () async throws -> Void
    ) async throws {
        guard parsed.flag("queue") else { return try await work() }
        guard files.keepsChanges(of: change.location) else {
            throw CLIError.usage(
                "--queue: \(change.location) is not on an Officer server; only an Officer server's changes are queued")
        }
        let write = write ?? { try files.queuedWrite(for: change) }
        if queueAtOnce { return say(try files.server.enqueue(try write()), context, offline: files.isOffline) }
        if let item = try await files.server.applyOrQueue(write, apply: work) {
            queueAtOnce = true
            say(item, context, offline: files.isOffline)
        }
    }

    /// The same for one change.
    static func perform(
        _ parsed: ParsedCommand, _ context: CommandContext, _ files: OfficerFiles, change: FileChange,
        work: () async throws -> Void
    ) async throws {
        var queueAtOnce = false
        try await perform(parsed, context, files, change: change, queueAtOnce: &queueAtOnce, work: work)
    }

    /// Makes the folder a batch's plan names (`-p`) before its first change, or keeps that too.
    static func makeFirst(
        _ folder: Location?, _ parsed: ParsedCommand, _ context: CommandContext, _ files: OfficerFiles,
        queueAtOnce: inout Bool
    ) async throws {
        guard let folder else { return }
        try await perform(
            parsed, context, files, change: .makeFolder(folder, parents: true), queueAtOnce: &queueAtOnce
        ) {
            _ = try await files.makeFolder(folder, parents: true)
        }
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
