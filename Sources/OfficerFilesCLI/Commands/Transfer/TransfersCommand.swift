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
        let journal = try TransferJournal(path: TransferJournal.defaultPath(environment: context.environment))
        let uploads = try journal.uploads()
        let downloads = try journal.downloads()
        switch parsed.path.last {
        case "list": list(uploads: uploads, downloads: downloads, context: context)
        case "resume": try await resume(uploads: uploads, downloads: downloads, journal: journal, context: context)
        default: try await clean(uploads: uploads, downloads: downloads, journal: journal, context: context)
        }
    }

    static func list(uploads: [TransferJournal.Upload], downloads: [TransferJournal.Download], context: CommandContext) {
        if context.global.json {
            for upload in uploads {
                let sent = upload.parts.reduce(0) { $0 + $1.offset }
                context.printJSON(Row(kind: "upload", from: upload.localPath, to: upload.label, done: sent, total: upload.fingerprint.size))
            }
            for download in downloads {
                let done = download.segments.reduce(0) { $0 + $1.done }
                context.printJSON(Row(kind: "download", from: shown(download), to: download.destination, done: done, total: download.total))
            }
            return
        }
        if uploads.isEmpty && downloads.isEmpty {
            context.say("No unfinished transfers.")
            return
        }
        for upload in uploads {
            let sent = upload.parts.reduce(0) { $0 + $1.offset }
            context.console.print("upload    \(upload.localPath) -> \(upload.label)  \(amount(sent, upload.fingerprint.size))")
        }
        for download in downloads {
            let done = download.segments.reduce(0) { $0 + $1.done }
            let note = download.segments.isEmpty ? "  (no ranges on the server: a rerun starts over)" : ""
            context.console.print("download  \(shown(download)) -> \(download.destination)  \(amount(done, download.total))\(note)")
        }
    }

    /// An Officer download as the user named it (`officer:/path`), any other by its URL.
    static func shown(_ download: TransferJournal.Download) -> String {
        OfficerClient.remotePath(fromRawURL: download.url)?.description ?? download.url
    }

    static func amount(_ done: Int64, _ total: Int64?) -> String {
        guard let total, total > 0 else { return ByteCountFormat.string(done) }
        return "\(ByteCountFormat.string(done)) / \(ByteCountFormat.string(total)) (\(done * 100 / total)%)"
    }

    static func resume(
        uploads: [TransferJournal.Upload], downloads: [TransferJournal.Download], journal: TransferJournal, context: CommandContext
    ) async throws {
        let uploader = TusUploader.describingFiles(http: context.httpClient(), journal: journal)
        let downloader = SegmentedDownloader(http: context.httpClient(), journal: journal)
        let reporter = context.progressReporter()
        var jobs: [Job] = uploads.map { .upload($0) } + downloads.map { .download($0) }
        if jobs.isEmpty {
            context.say("No unfinished transfers.")
            return
        }
        jobs.sort { $0.order < $1.order }
        try await BatchRunner.run(jobs, context: context) { job in
            switch job {
            case .upload(let upload):
                var target = upload.target
                target.credential = credential(for: target.tusEndpoint, context: context)
                try await PutCommand.upload(upload.localPath, to: target, uploader: uploader, options: UploadOptions(), reporter: reporter, context: context)
            case .download(let download):
                let display = PartsDisplay(reporter: reporter, name: (download.destination as NSString).lastPathComponent, context: context)
                let result = try await downloader.download(
                    from: download.url, credential: credential(for: download.url, context: context), to: download.destination,
                    onEvent: display.handle)
                display.finish(failed: false)
                context.say("Saved \(result.path) (\(ByteCountFormat.string(result.bytes))), resumed after \(ByteCountFormat.string(result.resumedBytes))")
            }
        }
        reporter.close()
    }

    static func clean(
        uploads: [TransferJournal.Upload], downloads: [TransferJournal.Download], journal: TransferJournal, context: CommandContext
    ) async throws {
        let uploader = TusUploader.describingFiles(http: context.httpClient(), journal: journal)
        for upload in uploads {
            await uploader.terminate(upload, credential: credential(for: upload.target.tusEndpoint, context: context))
            context.say("removed the partial upload of \(upload.localPath) to \(upload.label)")
        }
        for download in downloads {
            unlink(download.tempPath)
            try journal.remove(destination: download.destination)
            context.say("removed the partial download of \(download.destination)")
        }
        if uploads.isEmpty && downloads.isEmpty { context.say("No unfinished transfers.") }
    }

    /// The configured server's credential, but only for URLs on its origin.
    static func credential(for url: String, context: CommandContext) -> BearerCredential? {
        (try? context.client())?.credential?.scoped(to: url)
    }

    enum Job: Sendable {
        case upload(TransferJournal.Upload)
        case download(TransferJournal.Download)
        var order: Int { if case .upload = self { 0 } else { 1 } }
    }

    struct Row: Encodable {
        var kind: String
        var from: String
        var to: String
        var done: Int64
        var total: Int64?
    }
}
