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
            any tus 1.0 server. Rerunning the same command after any interruption continues from the server's
            offset; a local file changed meanwhile is uploaded again from the start. Ctrl-C pauses: the server
            keeps what it has; 'officer-files transfers clean' discards it.
            """,
        options: [
            OptionSpec(["--force", "-f"], help: "replace existing files on the server"),
            OptionSpec(["--parents", "-p"], help: "create the destination folder (or a single file's parent) if missing"),
            OptionSpec(["--chunk-size"], .value(placeholder: "SIZE"), help: "fixed bytes per PATCH request (default: sized from the rate, about 3 s each)"),
            OptionSpec(["--parts"], .value(placeholder: "N"), help: "upload N parts in parallel and join them (tus concatenation)"),
            OptionSpec(["--bwlimit"], .value(placeholder: "RATE"), help: "at most RATE bytes/s in all (e.g. 500K, 2M)"),
            OptionSpec(["--no-checksum"], help: "do not checksum chunks (faster; TLS still protects the bytes in transit)"),
            OptionSpec(["--meta"], .repeated(placeholder: "KEY=VALUE"), help: "add tus Upload-Metadata (filename, filetype and mtime are sent anyway)"),
            OptionSpec(
                ["--resize"], .optionalValue(placeholder: "N|best-effort"),
                help: "prepare images first: longest edge N (default 2048), re-encoded, metadata stripped; best-effort uploads damaged images unchanged"),
        ] + ImageSettings.options,
        positionals: [
            PositionalSpec("LOCAL", help: "local file(s) to upload", variadic: true),
            PositionalSpec("DEST", help: "officer:/folder/, officer:/path/name, or a tus URL"),
        ])

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        var options = UploadOptions()
        if let text = parsed.value("chunk-size") {
            guard let size = ByteCountFormat.parse(text), size >= 64 << 10 else {
                throw ArgumentError.invalidValue(option: "--chunk-size", value: text, reason: "a size of at least 64K, e.g. 8M")
            }
            options.chunkSize = size
        }
        if let text = parsed.value("parts") {
            guard let parts = Int(text), (1...16).contains(parts) else {
                throw ArgumentError.invalidValue(option: "--parts", value: text, reason: "a number from 1 to 16")
            }
            options.parts = parts
        }
        options.bandwidthLimit = try parsed.value("bwlimit").map { try ArgumentValues.rate($0, option: "--bwlimit") }
        options.checksums = !parsed.flag("no-checksum")
        for text in parsed.all("meta") {
            guard let equals = text.firstIndex(of: "="), UploadTarget.isValidMetadataKey(String(text[..<equals])) else {
                throw ArgumentError.invalidValue(option: "--meta", value: text, reason: "KEY=VALUE, the key without spaces or commas")
            }
            options.metadata.append(UploadTarget.MetadataItem(String(text[..<equals]), String(text[text.index(after: equals)...])))
        }
        let locals = Array(parsed.positionals.dropLast())
        for local in locals {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: local, isDirectory: &isDirectory) else {
                throw CLIError.localFile(path: local, message: "no such file")
            }
            if isDirectory.boolValue { throw CLIError.localFile(path: local, message: "is a folder (upload its files, or use sync)") }
        }
        let uploader = TusUploader.describingFiles(
            http: context.httpClient(), journal: try TransferJournal(path: TransferJournal.defaultPath(environment: context.environment)))
        let reporter = context.progressReporter()
        guard parsed.flag("resize") else {
            let targets = try await resolveTargets(
                locals: locals, names: nil, dest: parsed.positionals.last!, force: parsed.flag("force"), parents: parsed.flag("parents"),
                context: context)
            try await BatchRunner.run(Array(zip(locals, targets)), context: context) { local, target in
                try await upload(local, to: target, uploader: uploader, options: options, reporter: reporter, context: context)
            }
            reporter.close()
            return
        }
        let resizeValue = parsed.value("resize")
        let bestEffort = resizeValue == "best-effort"
        let imageOptions = try ImageSettings.parse(parsed, maxEdge: bestEffort ? nil : resizeValue)
        let preparation = UploadImagePreparation(
            options: imageOptions, bestEffort: bestEffort, folder: UploadImagePreparation.defaultFolder(environment: context.environment))
        try await uploadPrepared(
            locals: locals, dest: parsed.positionals.last!, force: parsed.flag("force"), parents: parsed.flag("parents"),
            preparation: preparation, uploader: uploader,
            options: options, reporter: reporter, context: context)
        reporter.close()
    }

    /// A two-stage pipeline: the next window of images is prepared on every core while the current one uploads.
    static func uploadPrepared(
        locals: [String], dest: String, force: Bool, parents: Bool, preparation: UploadImagePreparation, uploader: TusUploader,
        options: UploadOptions, reporter: ProgressReporter, context: CommandContext
    ) async throws {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let windows = stride(from: 0, to: locals.count, by: cores * 2).map { Array(locals[$0..<min($0 + cores * 2, locals.count)]) }
        func prepareWindow(_ files: [String]) -> Task<[Result<UploadImagePreparation.Item, ImageError>], Never> {
            Task { await ParallelRunner.map(files, width: cores) { preparation.prepare($0) } }
        }
        var failures: [any Error] = []
        var pending: Task<[Result<UploadImagePreparation.Item, ImageError>], Never>? = windows.first.map(prepareWindow)
        for (index, window) in windows.enumerated() {
            let prepared = await pending!.value
            pending = index + 1 < windows.count ? prepareWindow(windows[index + 1]) : nil
            var ready: [(String, UploadImagePreparation.Item)] = []
            for (local, result) in zip(window, prepared) {
                switch result {
                case .success(let item):
                    if let warning = item.warning { context.console.message("warning: \(warning)") }
                    ready.append((local, item))
                case .failure(let error):
                    // A single file's failure is the command's error, printed once by the caller.
                    if locals.count == 1 { throw error }
                    context.console.message("officer-files: \(error); not uploaded")
                    failures.append(error)
                }
            }
            let targets = try await resolveTargets(
                locals: ready.map(\.1.path), names: ready.map(\.1.name), dest: dest, force: force, parents: parents, context: context,
                multiple: locals.count > 1)
            for ((local, item), target) in zip(ready, targets) {
                do {
                    try await upload(item.path, to: target, uploader: uploader, options: options, reporter: reporter, context: context, shownAs: local)
                    if let temporary = item.temporary { unlink(temporary) }
                } catch {
                    if locals.count == 1 { throw error }
                    context.console.message("officer-files: \(error)")
                    failures.append(error)
                }
            }
        }
        if !failures.isEmpty {
            if locals.count == 1 { throw failures[0] }
            throw BatchRunner.summary(of: failures, total: locals.count)
        }
    }

    static func upload(
        _ local: String, to target: UploadTarget, uploader: TusUploader, options: UploadOptions, reporter: ProgressReporter,
        context: CommandContext, shownAs: String? = nil
    ) async throws {
        let shown = shownAs ?? local
        let display = PartsDisplay(reporter: reporter, name: (shown as NSString).lastPathComponent, context: context)
        let started = Date()
        let result: UploadResult
        do {
            result = try await uploader.upload(file: local, to: target, options: options, onEvent: display.handle)
            display.finish(failed: false)
        } catch {
            display.finish(failed: true)
            if case UploadError.server(_, 409, let message) = error {
                // On an Officer server a 409 at creation means the file exists, which --force settles; any other
                // tus server's 409 is its own business, told with the file and the URL.
                if RemotePath.isRemote(target.label) {
                    throw CLIError.refused("\(target.label): already exists (use --force to replace it)", .conflict)
                }
                throw CLIError.refused("\(shown) -> \(target.label): the tus server refused it (409 Conflict): \(message)", .conflict)
            }
            throw UploadReport.explained(error, shown: shown)
        }
        UploadReport.finished(
            result, shown: shown, destination: target.label, seconds: Date().timeIntervalSince(started), reporter: reporter, context: context)
    }

    /// One target per local file, placed by the library's rule (``OfficerClient/uploadPlacement``) and made by the
    /// front door (``OfficerFiles/uploadTarget(for:name:placement:overwrite:)``): into an existing folder, or to a
    /// file name for a single file; missing folders only with `--parents`. A tus URL takes the files as they are.
    static func resolveTargets(
        locals: [String], names: [String]?, dest: String, force: Bool, parents: Bool, context: CommandContext, multiple: Bool? = nil
    ) async throws -> [UploadTarget] {
        let several = multiple ?? (locals.count > 1)
        let lowered = dest.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            return locals.enumerated().map { index, local in
                UploadTarget.tus(url: dest, fileName: names?[index] ?? (local as NSString).lastPathComponent, mtime: OfficerFiles.modificationTime(of: local))
            }
        }
        guard RemotePath.isRemote(dest) else {
            throw CLIError.usage("\(dest): DEST must be officer:/path or a tus URL")
        }
        let files = try context.files()
        let path = try files.path(dest)
        let placement = try await place(files.client, path, namesFolder: dest.hasSuffix("/"), several: several, parents: parents)
        return try locals.enumerated().map { index, local in
            try files.uploadTarget(for: local, name: names?[index], placement: placement, overwrite: force)
        }
    }

    /// The library's placement; a missing folder gets the option that creates it named.
    static func place(_ client: OfficerClient, _ path: RemotePath, namesFolder: Bool, several: Bool, parents: Bool) async throws
        -> UploadPlacement
    {
        let outcome: Result<UploadPlacement, OfficerError>
        do {
            outcome = .success(try await client.uploadPlacement(destination: path, namesFolder: namesFolder, several: several, createMissing: parents))
        } catch {
            outcome = .failure(error)
        }
        switch outcome {
        case .success(let placement): return placement
        case .failure(.notFound(_, let message)): throw CLIError.refused("\(message) (put --parents creates it)", .notFound)
        case .failure(let error): throw error
        }
    }
}
