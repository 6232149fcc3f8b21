import FileModel
import Foundation
import HTTP
import Officer
import Preview
import Transfer

/// `put`: resumable uploads (tus 1.0) to an Officer folder or any tus server.
enum PutCommand: Command {
    static let spec = CommandSpec(
        "put", summary: "upload local files (resumable over tus, multipart where tus is missing)",
        discussion: """
            DEST is an Officer folder (officer:/Photos/), an Officer file name for a single LOCAL, or the URL of
            any tus 1.0 server. LOCAL '-' is standard input, to an Officer file name: sent in checksummed chunks
            with its length told at the end (tus creation-defer-length); the file appears whole or not at all,
            and an interrupted pipe cannot be continued (Ctrl-C removes what was sent). Rerunning the same command after any interruption continues from the server's
            offset; a local file changed meanwhile is uploaded again from the start. Ctrl-C pauses: the server
            keeps what it has; 'officer-files transfers clean' discards it.
            """,
        options: [
            OptionSpec(["--force", "-f"], help: "replace existing files on the server"),
            OptionSpec(
                ["--parents", "-p"], help: "create the destination folder (or a single file's parent) if missing"),
            OptionSpec(
                ["--chunk-size"], .value(placeholder: "SIZE"),
                help: "fixed bytes per PATCH request (default: sized from the rate, about 3 s each)"),
            OptionSpec(
                ["--parts"], .value(placeholder: "N"),
                help: "upload N parts in parallel and join them (tus concatenation)"),
            OptionSpec(["--bwlimit"], .value(placeholder: "RATE"), help: "at most RATE bytes/s in all (e.g. 500K, 2M)"),
            OptionSpec(
                ["--resumable"], .value(placeholder: "tus|ietf"),
                help:
                    "the resumable form to prefer where the server offers both (default tus; ietf: the IETF draft's, as URLSession resumes)"
            ),
            OptionSpec(
                ["--no-checksum"], help: "do not checksum chunks (faster; TLS still protects the bytes in transit)"),
            OptionSpec(
                ["--meta"], .repeated(placeholder: "KEY=VALUE"),
                help: "add tus Upload-Metadata (filename, filetype and mtime are sent anyway)"),
            OptionSpec(
                ["--resize"], .optionalValue(placeholder: "N|best-effort"),
                help:
                    "prepare images first: longest edge N (default 2048), re-encoded, metadata stripped; best-effort uploads damaged images unchanged"
            ),
            WriteQueueing.option,
        ] + ImageSettings.options,
        positionals: [
            PositionalSpec("LOCAL", help: "local file(s) to upload", variadic: true),
            PositionalSpec(
                "DEST",
                help:
                    "officer:/folder/, officer:/path/name (NAME:/… on a named Officer server), NAME:bucket/[folder/|key] or a tus URL"
            ),
        ])

    /// The upload options the command line gives.
    static func uploadOptions(_ parsed: ParsedCommand) throws -> UploadOptions {
        var options = UploadOptions()
        if let text = parsed.value("chunk-size") {
            guard let size = ByteCountFormat.parse(text), size >= 64 << 10 else {
                throw ArgumentError.invalidValue(
                    option: "--chunk-size", value: text, reason: "a size of at least 64K, e.g. 8M")
            }
            options.chunkSize = size
        }
        if let parts = try parsed.number("parts", in: 1...16) { options.parts = parts }
        options.bandwidthLimit = try parsed.value("bwlimit").map { try ArgumentValues.rate($0, option: "--bwlimit") }
        options.checksums = !parsed.flag("no-checksum")
        if let form = parsed.value("resumable") {
            guard let chosen = ResumableUploadForm(rawValue: form), chosen != .automatic else {
                throw ArgumentError.invalidValue(
                    option: parsed.spelling("resumable"), value: form, reason: "tus or ietf")
            }
            options.resumableForm = chosen
        }
        for text in parsed.all("meta") {
            guard let equals = text.firstIndex(of: "="), UploadTarget.isValidMetadataKey(String(text[..<equals])) else {
                throw ArgumentError.invalidValue(
                    option: "--meta", value: text, reason: "KEY=VALUE, the key without spaces or commas")
            }
            options.metadata.append(
                UploadTarget.MetadataItem(String(text[..<equals]), String(text[text.index(after: equals)...])))
        }
        return options
    }

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        let options = try uploadOptions(parsed)
        let locals = Array(parsed.positionals.dropLast())
        if locals.contains("-") {
            guard locals.count == 1 else {
                throw CLIError.usage("'-' (standard input) is uploaded alone, not with other files")
            }
            return try await uploadStandardInput(parsed.positionals.last!, options: options, parsed, context)
        }
        let dest = parsed.positionals.last!
        let files = try context.files()
        let location = try context.location(dest)
        guard location.isRemote else {
            throw CLIError.usage(
                "\(dest): DEST must be a remote path (officer:/path, NAME:/path, NAME:bucket/key) or a tus URL")
        }
        if parsed.flag("queue"), parsed.flag("resize") {
            throw CLIError.usage("--queue does not go with --resize (a queued upload sends the file as it is)")
        }
        var request = UploadRequest()
        request.createMissing = parsed.flag("parents")
        request.overwrite = parsed.flag("force")
        request.options = options
        let plan = try await files.planUpload(
            of: locals, to: location, request: request, queueing: parsed.flag("queue"))
        var queueAtOnce = plan.queueAtOnce
        try await WriteQueueing.makeFirst(plan.folderToMake, parsed, context, files, queueAtOnce: &queueAtOnce)
        let reporter = context.progressReporter()
        defer { reporter.close() }
        if locals.count > 1, !queueAtOnce {
            reporter.expect(files: locals.count, bytes: parsed.flag("resize") ? nil : Self.totalSize(of: locals))
        }
        guard parsed.flag("resize") else {
            try await BatchRunner.run(locals, context: context) { local in
                try await WriteQueueing.perform(
                    parsed, context, files, change: plan.change(for: local), queueAtOnce: &queueAtOnce,
                    write: { try plan.queuedWrite(for: local) }
                ) {
                    try await upload(local, plan, options: options, reporter: reporter, context: context)
                }
            }
            return
        }
        try await sendResized(locals, plan, options: options, reporter: reporter, parsed, context)
    }

    /// `put --resize`: each image prepared (the next window of them on every core while this one uploads), then
    /// sent; with several files, one that cannot be prepared or sent is told and the others go on.
    static func sendResized(
        _ locals: [String], _ plan: UploadPlan, options: UploadOptions, reporter: ProgressReporter,
        _ parsed: ParsedCommand, _ context: CommandContext
    ) async throws {
        let files = try context.files()
        let resizeValue = parsed.value("resize")
        let bestEffort = resizeValue == "best-effort"
        let preparation = files.imagePreparation(
            try ImageSettings.parse(parsed, maxEdge: bestEffort ? nil : resizeValue), bestEffort: bestEffort)
        // The next window of images is prepared on every core while this one uploads.
        var failures: [any Error] = []
        func send(_ local: String, _ prepared: Result<UploadImagePreparation.Item, ImageError>) async throws {
            do {
                let item = try prepared.get()
                if let warning = item.warning { context.console.message("warning: \(warning)") }
                try await upload(
                    item.path, plan, name: item.name, options: options, reporter: reporter, context: context,
                    shownAs: local)
                if let temporary = item.temporary { unlink(temporary) }
            } catch {
                if locals.count == 1 || Task.isCancelled { throw error }
                context.console.message(
                    "officer-files: " + context.describe(error) + (error is ImageError ? "; not uploaded" : ""))
                failures.append(error)
            }
        }
        // A file the user named (`put --resize a.png officer:/b.webp`) is prepared in the format its name says.
        if locals.count == 1, let name = plan.fileName {
            try await send(locals[0], preparation.prepare(locals[0], as: name))
        } else {
            for await (local, prepared) in PreparedUploads(locals, preparation: preparation) {
                try await send(local, prepared)
            }
            // The sequence ends early when cancelled: the rest was not sent.
            try Task.checkCancellation()
        }
        if !failures.isEmpty { throw BatchRunner.summary(of: failures, total: locals.count) }
    }

    /// `put - officer:/path`: standard input, of unknown length, to one Officer file.
    static func uploadStandardInput(
        _ dest: String, options: UploadOptions, _ parsed: ParsedCommand, _ context: CommandContext
    ) async throws {
        let destination = try context.location(dest)
        guard destination.isRemote, !destination.namesFolder, !dest.hasSuffix("/") else {
            throw CLIError.usage("\(dest): standard input goes to a remote file name (officer:/path/name)")
        }
        // A forgotten pipe would wait for the terminal's end of file (Ctrl-D) with nothing said.
        if isatty(STDIN_FILENO) == 1 {
            throw CLIError.usage("standard input is a terminal: pipe the data into 'put -'")
        }
        let files = try context.files()
        var request = UploadRequest()
        request.createMissing = parsed.flag("parents")
        request.overwrite = parsed.flag("force")
        request.options = options
        let reporter = context.progressReporter()
        defer { reporter.close() }
        let display = PartsDisplay(reporter: reporter, name: destination.name, context: context)
        let started = Date()
        let result: UploadResult
        do {
            result = try await context.show(
                files.upload(stream: DescriptorByteStream(descriptor: STDIN_FILENO), to: destination, request: request),
                on: display)
        } catch UploadError.cancelled {
            throw CLIError.refused(
                "standard input -> \(destination): interrupted; nothing was kept on the server", .interrupted)
        }
        UploadReport.finished(
            result, shown: "standard input", destination: destination.description,
            seconds: Date().timeIntervalSince(started),
            reporter: reporter, context: context)
    }

    static func upload(
        _ local: String, _ plan: UploadPlan, name: String? = nil, options: UploadOptions, reporter: ProgressReporter,
        context: CommandContext, shownAs: String? = nil
    ) async throws {
        let shown = shownAs ?? local
        let landing = plan.landing(of: local, name: name).description
        let display = PartsDisplay(reporter: reporter, name: (shown as NSString).lastPathComponent, context: context)
        let started = Date()
        let result: UploadResult
        do {
            result = try await context.show(plan.upload(local, name: name, options: options), on: display)
        } catch {
            throw UploadReport.explained(error, shown: shown, local: local, context: context)
        }
        UploadReport.finished(
            result, shown: shown, destination: landing, seconds: Date().timeIntervalSince(started),
            reporter: reporter, context: context)
    }

    /// Bytes of the files a batch sends (known before the first starts, so the total line never grows).
    static func totalSize(of locals: [String]) -> Int64 {
        locals.reduce(0) { sum, local in
            sum + ((try? FileManager.default.attributesOfItem(atPath: local)[.size] as? NSNumber)?.int64Value ?? 0)
        }
    }
}
