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
        let transfers = try files.journaledTransfers()
        switch parsed.path.last {
        case "list": list(transfers, context: context)
        case "resume": try await resume(transfers, files: files, context: context)
        default: try await clean(transfers, files: files, context: context)
        }
    }

    static func list(_ transfers: [JournaledTransfer], context: CommandContext) {
        if context.global.json {
            for transfer in transfers {
                let (kind, from, to) = describe(transfer, context.locationNames())
                context.printJSON(
                    UnfinishedRecord(
                        kind: kind, source: from, destination: to, doneBytes: transfer.done, size: transfer.total))
            }
            return
        }
        if transfers.isEmpty {
            context.say("No unfinished transfers.")
            return
        }
        for transfer in transfers {
            let (kind, from, to) = describe(transfer, context.locationNames())
            var note = ""
            if case .download(let download) = transfer, download.segments.isEmpty {
                note = "  (no ranges on the server: a rerun starts over)"
            }
            var size = amount(transfer.done, transfer.total)
            if case .objectUpload = transfer {
                size =
                    "\(ByteCountFormat.string(transfer.total ?? 0)) in parts (the store says which it holds on resume)"
            }
            context.console.print(
                "\(kind.padding(toLength: 9, withPad: " ", startingAt: 0)) \(from) -> \(to)  \(size)\(note)")
        }
    }

    /// Kind, source and destination as the user named them (`officer:/path` for Officer downloads).
    static func describe(_ transfer: JournaledTransfer, _ names: LocationNames) -> (
        kind: String, from: String, to: String
    ) {
        switch transfer {
        case .upload(let upload): ("upload", upload.localPath, upload.label)
        case .objectUpload(let upload):
            (
                "upload", upload.localPath,
                names.objectLocation(endpoint: upload.endpoint, bucket: upload.bucket, key: upload.objectKey)
            )
        case .download(let download): ("download", names.location(ofURL: download.url), download.destination)
        }
    }

    static func amount(_ done: Int64, _ total: Int64?) -> String {
        guard let total, total > 0 else { return ByteCountFormat.string(done) }
        return "\(ByteCountFormat.string(done)) / \(ByteCountFormat.string(total)) (\(done * 100 / total)%)"
    }

    static func resume(_ transfers: [JournaledTransfer], files: OfficerFiles, context: CommandContext) async throws {
        if transfers.isEmpty {
            if !context.global.json { context.say("No unfinished transfers.") }
            return
        }
        let reporter = context.progressReporter()
        defer { reporter.close() }
        try await BatchRunner.run(transfers, context: context) { transfer in
            let (_, from, to) = describe(transfer, context.locationNames())
            let display = PartsDisplay(reporter: reporter, name: ((to as NSString).lastPathComponent), context: context)
            let started = Date()
            let outcome: TransferOutcome
            do {
                outcome = try await context.show(files.resume(transfer), on: display)
            } catch {
                throw UploadReport.explained(error, shown: from)
            }
            switch outcome {
            case .uploaded(let result):
                UploadReport.finished(
                    result, shown: from, destination: to, seconds: Date().timeIntervalSince(started),
                    reporter: reporter, context: context)
            case .downloaded(let result) where context.global.json:
                GetCommand.report(result, source: from, started, context)
            case .downloaded(let result):
                context.say(
                    "Saved \(result.path) (\(ByteCountFormat.string(result.bytes))), resumed after \(ByteCountFormat.string(result.resumedBytes))"
                )
            }
        }
    }

    static func clean(_ transfers: [JournaledTransfer], files: OfficerFiles, context: CommandContext) async throws {
        for transfer in transfers {
            let (kind, from, to) = describe(transfer, context.locationNames())
            if files.isRunning(transfer) {
                if context.global.json {
                    context.printJSON(CleanedRecord(kind: kind, source: from, destination: to, removed: false))
                } else {
                    context.say("left \(from) -> \(to) alone: a running transfer holds it")
                }
                continue
            }
            try await files.discard(transfer)
            if context.global.json {
                context.printJSON(CleanedRecord(kind: kind, source: from, destination: to, removed: true))
                continue
            }
            switch transfer {
            case .upload(let upload):
                context.say("removed the partial upload of \(upload.localPath) to \(upload.label)")
            case .objectUpload(let upload):
                context.say("aborted the multipart upload of \(upload.localPath) to \(upload.label)")
            case .download(let download): context.say("removed the partial download of \(download.destination)")
            }
        }
        if transfers.isEmpty, !context.global.json { context.say("No unfinished transfers.") }
    }
}
