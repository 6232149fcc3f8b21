import FileModel
import Foundation
import HTTP
import Officer
import Transfer

/// `transfers list|resume|clean`: the unfinished uploads and downloads in the journal.
enum TransfersCommand: Command {
    static let spec = CommandSpec(
        "transfers", summary: "list, resume or clean up unfinished uploads and downloads",
        subcommands: [
            CommandSpec("list", summary: "show unfinished transfers from the journal"),
            CommandSpec("resume", summary: "continue every unfinished transfer"),
            CommandSpec("clean", summary: "cancel every unfinished transfer: remove partial uploads and temp files"),
        ])

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        let files = try context.files()
        let transfers = try files.unfinishedTransferList()
        switch parsed.path.last {
        case "list": list(transfers, context: context)
        case "resume": try await resume(transfers, files: files, context: context)
        default: try await clean(transfers, files: files, context: context)
        }
    }

    static func kind(_ transfer: UnfinishedTransfer) -> String { transfer.isUpload ? "upload" : "download" }

    static func list(_ transfers: [UnfinishedTransfer], context: CommandContext) {
        if context.global.json {
            for transfer in transfers {
                context.printJSON(
                    UnfinishedRecord(
                        kind: kind(transfer), source: transfer.source, destination: transfer.destination,
                        doneBytes: transfer.doneBytes, size: transfer.totalBytes))
            }
            return
        }
        if transfers.isEmpty {
            context.say("No unfinished transfers.")
            return
        }
        for transfer in transfers {
            context.console.print(
                "\(kind(transfer).padding(toLength: 9, withPad: " ", startingAt: 0)) \(TerminalText.escaped(transfer.source)) -> \(TerminalText.escaped(transfer.destination))  \(transfer.amount)"
            )
        }
    }

    static func resume(_ transfers: [UnfinishedTransfer], files: OfficerFiles, context: CommandContext) async throws {
        if transfers.isEmpty {
            if !context.global.json { context.say("No unfinished transfers.") }
            return
        }
        let reporter = context.progressReporter()
        defer { reporter.close() }
        try await BatchRunner.run(transfers, context: context) { transfer in
            let (from, to) = (transfer.source, transfer.destination)
            let display = PartsDisplay(reporter: reporter, name: ((to as NSString).lastPathComponent), context: context)
            let started = Date()
            let outcome: TransferOutcome
            do {
                outcome = try await context.show(files.resume(transfer.record), on: display)
            } catch {
                throw UploadReport.explained(error, shown: from, context: context)
            }
            switch outcome {
            case .uploaded(let result):
                UploadReport.finished(
                    result, shown: from, destination: to, seconds: Date().timeIntervalSince(started),
                    reporter: reporter, context: context)
            case .downloaded(let result) where context.global.json:
                GetCommand.report(result, source: from, started, context)
            case .downloaded(let result) where !context.global.quiet:
                // To stderr like every message (the console clears the progress frame first), not stdout beside it.
                context.console.message(
                    "Saved \(result.path) (\(ByteCountFormat.string(result.bytes))), resumed after \(ByteCountFormat.string(result.resumedBytes))"
                )
            case .downloaded: break
            }
        }
    }

    static func clean(_ transfers: [UnfinishedTransfer], files: OfficerFiles, context: CommandContext) async throws {
        for transfer in transfers {
            let (kind, from, to) = (kind(transfer), transfer.source, transfer.destination)
            if files.isRunning(transfer.record) {
                if context.global.json {
                    context.printJSON(CleanedRecord(kind: kind, source: from, destination: to, removed: false))
                } else {
                    context.say("left \(from) -> \(to) alone: a running transfer holds it")
                }
                continue
            }
            try await files.discard(transfer.record)
            if context.global.json {
                context.printJSON(CleanedRecord(kind: kind, source: from, destination: to, removed: true))
            } else {
                context.say(transfer.discarded)
            }
        }
        if transfers.isEmpty, !context.global.json { context.say("No unfinished transfers.") }
    }
}
