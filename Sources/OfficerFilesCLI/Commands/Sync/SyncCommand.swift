import FileModel
import Foundation
import HTTP
import Officer
import Preview
import Transfer

/// `sync SRC DST` and `copy SRC DST`: a local folder and an Officer folder, either way.
enum SyncCommand: Command {
    static let spec = CommandSpec(
        "sync", summary: "make a folder the same as another (local, Officer or S3, either way), resumable, streaming",
        discussion: discussion
            + "\nWith --delete, what DST has and SRC lacks is removed — after the transfers, and only if nothing failed.",
        options: [
            OptionSpec(["--delete"], help: "remove from DST what SRC does not have (after a run without errors)"),
            OptionSpec(
                ["--max-delete"], .value(placeholder: "N"),
                help: "refuse to delete more than N entries (nothing is deleted then)"),
        ] + sharedOptions,
        positionals: positionals)

    static let discussion = """
        SRC and DST are each a local folder, an Officer folder (officer:/path, NAME:/path) or a bucket or folder
        of an S3 remote (NAME:bucket/path, see `remote`): local to remote, remote to local, or remote to remote
        (staged through this machine a file at a time). Files are compared by size and modification time (the
        server keeps the time sent; on S3 it is stored as rclone stores it), or --checksum (SHA-256 computed by
        the server, or stored with the object) or --size-only. Both sides are listed in one order and merged as they stream, and transfers
        start while listing goes on, so memory stays bounded however large the tree. Large files go through
        the resumable upload and download: rerunning an interrupted sync continues them and skips what is done.
        Names from the server that could escape DST (.., /, NUL) are refused, and a local file that changed
        since it was compared is not overwritten. Filters: --exclude/--include PATTERN (tried in order; *, **,
        ?, [...]; a leading / anchors at the root, a trailing / matches folders) and --exclude-from FILE.
        """

    static let sharedOptions: [OptionSpec] =
        [
            OptionSpec(["--dry-run", "-n"], help: "print the plan (transfers, deletions, bytes) and change nothing"),
            OptionSpec(["--checksum", "-c"], help: "compare same-size files by SHA-256"),
            OptionSpec(["--size-only"], help: "compare by size only"),
            OptionSpec(["--exclude"], .value(placeholder: "PATTERN"), help: "leave out matching paths (repeatable)"),
            OptionSpec(
                ["--include"], .value(placeholder: "PATTERN"),
                help: "keep matching paths even if a later --exclude matches (repeatable)"),
            OptionSpec(
                ["--exclude-from"], .value(placeholder: "FILE"),
                help: "exclude patterns from FILE, one per line (# comments)"),
            OptionSpec(["--copy-links", "-L"], help: "follow symbolic links (default: skip them with a warning)"),
            OptionSpec(
                ["--transfers"], .value(placeholder: "N"),
                help: "files transferred at once, 1 to 256 (default: by size, up to 64 small files or 4 large ones)"),
            OptionSpec(
                ["--source-transfers"], .value(placeholder: "N"),
                help: "at most N of them fetched from SRC at once (a server that takes few connections)"),
            OptionSpec(
                ["--destination-transfers"], .value(placeholder: "N"),
                help: "at most N of them sent to DST at once; the other side is not held back"),
            OptionSpec(["--progress", "-P"], help: "show progress"),
            OptionSpec(
                ["--server-wait"], .value(placeholder: "SECONDS"),
                help: "how long a server that stopped answering is waited for before the sync stops (default: 60)"),
            OptionSpec(
                ["--bwlimit"], .value(placeholder: "RATE"),
                help: "at most RATE bytes/s in all, each way, however many files are in flight (e.g. 500K, 2M)"),
            OptionSpec(
                ["--resize"], .optionalValue(placeholder: "N|best-effort"),
                help:
                    "on push, prepare images first (longest edge N, default 2048; HEIC becomes .jpg); compared by time only"
            ),
        ] + ImageSettings.options.filter { $0.names != ["--format"] }

    static let positionals = [
        PositionalSpec("SRC", help: "local folder, officer:/folder or NAME:bucket/folder"),
        PositionalSpec("DST", help: "officer:/folder, NAME:bucket/folder or local folder"),
    ]

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        try await run(parsed, context, allowDelete: true)
    }

    static func run(_ parsed: ParsedCommand, _ context: CommandContext, allowDelete: Bool) async throws {
        let source = try context.location(parsed.positionals[0])
        let destination = try context.location(parsed.positionals[1])
        if !source.isRemote, !destination.isRemote {
            throw CLIError.usage(
                "give a local folder and a remote folder, or two remote folders (officer:/path or NAME:bucket/path)")
        }
        let push = !source.isRemote
        if !push, destination.isRemote, parsed.flag("resize") || parsed.flag("copy-links") {
            throw CLIError.usage("--resize and --copy-links are for a local folder")
        }
        var options = try options(parsed, push: push || destination.isRemote, allowDelete: allowDelete)
        options.followSymlinks = parsed.flag("copy-links")
        if parsed.flag("resize") {
            guard push else { throw CLIError.usage("--resize prepares images on push (a local SRC)") }
            options.imagePreparation = try imagePreparation(parsed, context)
        }
        let operation = try context.files(bandwidthLimit: try bandwidthLimit(parsed)).sync(
            from: source, to: destination, options: options)
        try await show(operation, options: options, parsed, context)
    }

    /// `--bwlimit`: the rate every transfer of the run keeps together.
    static func bandwidthLimit(_ parsed: ParsedCommand) throws -> Int64? {
        try parsed.value("bwlimit").map { try ArgumentValues.rate($0, option: "--bwlimit") }
    }

    /// The options every form of sync shares: deletion and its limit, comparison, dry run, transfers, filters.
    static func options(_ parsed: ParsedCommand, push: Bool, allowDelete: Bool) throws -> SyncOptions {
        var options = SyncOptions(direction: push ? .push : .pull)
        options.deleteExtraneous = allowDelete && parsed.flag("delete")
        if let text = parsed.value("max-delete") {
            guard let value = Int(text), value >= 0 else {
                throw ArgumentError.invalidValue(
                    option: "--max-delete", value: text, reason: "a number of entries, 0 or more")
            }
            options.maxDelete = value
        }
        if parsed.flag("checksum") && parsed.flag("size-only") {
            throw CLIError.usage("--checksum and --size-only exclude each other")
        }
        options.comparison = parsed.flag("checksum") ? .checksum : parsed.flag("size-only") ? .sizeOnly : .sizeAndTime
        options.dryRun = parsed.flag("dry-run")
        options.transfers = try parsed.number("transfers", in: 1...256)
        options.transfersPerSide.source = try parsed.number("source-transfers", in: 1...256)
        options.transfersPerSide.destination = try parsed.number("destination-transfers", in: 1...256)
        options.filter = try filter(parsed)
        if let seconds = try parsed.number("server-wait", in: 0...86_400) { options.serverWaitLimit = Double(seconds) }
        return options
    }

    static func show(
        _ operation: SyncOperation, options: SyncOptions, _ parsed: ParsedCommand, _ context: CommandContext
    ) async throws {
        let (sourceText, destinationText) = (parsed.positionals[0], parsed.positionals[1])
        let roots = SyncRoots(
            sourceRoot: try context.fullLocation(sourceText), destinationRoot: try context.fullLocation(destinationText)
        )
        let display = SyncDisplay(
            context: context, showProgress: parsed.flag("progress"), dryRun: options.dryRun, roots: roots)
        for await event in operation { display.handle(event) }
        let report: SyncReport
        do {
            report = try await operation.value
        } catch {
            display.close(failed: true)
            throw error
        }
        let interrupted = report.interruptedTransfers != nil || Task.isCancelled
        display.close(failed: !report.succeeded || interrupted)
        if interrupted {
            // Ctrl-C: one line with what was done; the transfers it cut short are not failures, and a rerun continues.
            if context.global.json {
                display.summarize(report, source: sourceText, destination: destinationText, deleteAsked: false)
            }
            let files = "\(report.transferred) file\(report.transferred == 1 ? "" : "s")"
            throw CLIError.refused(
                "interrupted after \(files) (\(ByteCountFormat.string(report.bytes))) of \(sourceText) -> \(destinationText); the same command continues",
                .interrupted)
        }
        display.summarize(
            report, source: sourceText, destination: destinationText, deleteAsked: options.deleteExtraneous)
        guard report.succeeded else {
            var parts: [String] = []
            if !report.failures.isEmpty { parts.append("\(report.failureCount) failed") }
            if report.deletionsSkipped != nil { parts.append("nothing deleted") }
            throw CLIError.refused("\(parsed.path[0]): " + parts.joined(separator: "; "), .failure)
        }
    }

    /// --include/--exclude in command-line order, then --exclude-from.
    static func filter(_ parsed: ParsedCommand) throws -> SyncFilter {
        var filter = SyncFilter()
        for option in parsed.sequence where option.key == "include" || option.key == "exclude" {
            guard let pattern = GlobPattern(option.value) else {
                throw ArgumentError.invalidValue(
                    option: "--" + option.key, value: option.value, reason: "an empty pattern")
            }
            filter.add(include: option.key == "include", pattern: pattern)
        }
        for file in parsed.all("exclude-from") {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw CLIError.localFile(path: file, message: "cannot read the exclude list")
            }
            for line in text.split(whereSeparator: \.isNewline) {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
                if let pattern = GlobPattern(trimmed) { filter.add(include: false, pattern: pattern) }
            }
        }
        return filter
    }

    /// `--resize` on push: images keep their names (HEIC and HEIF become .jpg), so the listing can be merged by name.
    static func imagePreparation(_ parsed: ParsedCommand, _ context: CommandContext) throws -> SyncImagePreparation {
        let value = parsed.value("resize")
        let bestEffort = value == "best-effort"
        let options = try ImageSettings.parse(parsed, maxEdge: bestEffort ? nil : value)
        let preparation = try context.files().imagePreparation(options, bestEffort: bestEffort)
        let console = context.console
        return preparation.syncHooks { console.message("warning: \($0)") }
    }
}

/// `copy SRC DST`: `sync` that never deletes.
enum CopyFolderCommand: Command {
    static let spec = CommandSpec(
        "copy",
        summary: "copy new and changed files between a local folder and an Officer or S3 folder (never deletes)",
        discussion: SyncCommand.discussion, options: SyncCommand.sharedOptions, positionals: SyncCommand.positionals)

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        try await SyncCommand.run(parsed, context, allowDelete: false)
    }
}
