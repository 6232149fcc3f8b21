import FileModel
import Foundation
import Officer

/// `watch LOCAL DEST`: sends what appears in a local folder to an Officer folder as it settles, until stopped.
enum WatchCommand: Command {
    static let spec = CommandSpec(
        "watch", summary: "upload what appears or changes in a local folder as it settles, until stopped",
        discussion: """
            First a copy of the whole folder catches up with what changed while nothing watched (a restart or a
            crash loses nothing; a file changed within --settle seconds waits for the live watch); then inotify
            reports changes (new folders included) and a file goes up once its writer closed it and its size and
            time stayed unchanged for --settle seconds, resumably, replacing an older copy of it on the server.
            While the server cannot be reached the watch waits (doubling up to a minute) and carries on. Idle, it
            uses no CPU. Ctrl-C or SIGTERM stops it.
            When the server no longer accepts the token (it expired), a login made with --remember (or
            OFFICER_PASSWORD_FILE) signs in again and the watch goes on; without one the watch stops with exit 3
            and one line saying to log in again (for systemd: RestartPreventExitStatus=3).
            """,
        options: [
            OptionSpec(
                ["--settle"], .value(placeholder: "SECONDS"), help: "how long a file must stay unchanged (default 2)"),
            OptionSpec(
                ["--exclude"], .repeated(placeholder: "GLOB"), help: "skip matching files and folders (as sync's)"),
            OptionSpec(
                ["--include"], .repeated(placeholder: "GLOB"), help: "take matching files even if excluded later"),
            OptionSpec(["--exclude-from"], .repeated(placeholder: "FILE"), help: "patterns to skip, one per line"),
            OptionSpec(
                ["--delete-after-upload"],
                help:
                    "remove each local file once the server's copy matched it (its SHA-256; a server without checksums: read back once)"
            ),
            OptionSpec(
                ["--resize"], .optionalValue(placeholder: "N|best-effort"),
                help: "prepare images first, as sync --resize does"),
            OptionSpec(
                ["--bwlimit"], .value(placeholder: "RATE"),
                help: "at most RATE bytes/s in all, each way (e.g. 500K, 2M)"),
        ] + ImageSettings.options,
        positionals: [
            PositionalSpec("LOCAL", help: "the local folder to watch"),
            PositionalSpec("DEST", help: "officer:/folder to send it to"),
        ])

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        let local = parsed.positionals[0]
        let remote = try context.remotePath(parsed.positionals[1])
        try LocalFiles.requireLocalFolder(local)
        var options = WatchOptions()
        if let text = parsed.value("settle") {
            guard let seconds = Double(text), seconds >= 0.1, seconds <= 3600 else {
                throw ArgumentError.invalidValue(
                    option: parsed.spelling("settle"), value: text, reason: "seconds from 0.1 to 3600")
            }
            options.settleSeconds = seconds
        }
        options.filter = try SyncCommand.filter(parsed)
        options.deleteAfterUpload = parsed.flag("delete-after-upload")
        if parsed.flag("resize") {
            if options.deleteAfterUpload {
                throw CLIError.usage("--delete-after-upload keeps originals of prepared images: give one of the two")
            }
            options.imagePreparation = try SyncCommand.imagePreparation(parsed, context)
        }
        let files = try context.files(bandwidthLimit: try SyncCommand.bandwidthLimit(parsed))
        let terminate = DispatchSource.makeSignalSource(signal: SIGTERM, queue: .global())
        signal(SIGTERM, SIG_IGN)
        let operation = files.watch(local, to: remote, options: options)
        terminate.setEventHandler { operation.cancel() }
        terminate.resume()
        defer { terminate.cancel() }
        if !context.global.quiet, !context.global.json {
            context.console.message("watching \(local) -> \(remote) (Ctrl-C stops)")
        }
        for await event in operation { show(event, context) }
        do {
            try await operation.value
        } catch  where ErrorCategory.of(error) == .cancelled {
            if !context.global.quiet { context.console.message("stopped watching \(local)") }
        }
    }

    static func show(_ event: WatchEvent, _ context: CommandContext) {
        if context.global.json {
            switch event {
            case .uploaded(let local, let remote, let bytes, let settled):
                context.printJSON(
                    WatchRecord(
                        type: "uploaded", source: context.shownLocation(local), destination: remote.description,
                        size: bytes, settledSeconds: settled))
            case .failed(let local, let reason):
                context.printJSON(WatchRecord(type: "failed", path: context.shownLocation(local), reason: reason))
            case .deletedLocal(let local):
                context.printJSON(WatchRecord(type: "deleted", path: context.shownLocation(local)))
            case .waiting(let reason, let retryIn):
                context.printJSON(WatchRecord(type: "waiting", reason: reason, retryInSeconds: retryIn))
            case .caughtUp(let uploaded, let failed):
                context.printJSON(WatchRecord(type: "caught-up", uploaded: uploaded, failed: failed))
            case .unchanged: break
            }
            return
        }
        guard !context.global.quiet || isProblem(event) else { return }
        switch event {
        case .uploaded(let local, let remote, let bytes, _):
            context.console.message("uploaded \(local) -> \(remote) (\(ByteCountFormat.string(bytes)))")
        case .unchanged(let local): if context.global.verbose { context.console.message("unchanged \(local)") }
        case .deletedLocal(let local): context.console.message("deleted \(local) (the server's copy matched it)")
        case .waiting(let reason, let retryIn):
            context.console.message("\(reason); trying again in \(DurationFormat.string(seconds: retryIn))")
        case .failed(let local, let reason): context.console.message("not uploaded: \(local): \(reason)")
        case .caughtUp(let uploaded, let failed):
            context.console.message(
                "caught up: \(uploaded) uploaded" + (failed > 0 ? ", \(failed) failed (tried again later)" : "")
                    + "; watching")
        }
    }

    static func isProblem(_ event: WatchEvent) -> Bool {
        switch event {
        case .failed, .waiting: true
        default: false
        }
    }
}
