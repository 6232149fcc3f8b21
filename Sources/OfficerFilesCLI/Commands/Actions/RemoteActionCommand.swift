import FileModel
import Foundation
import HTTP
import Officer
import Transfer

/// What `ocr`, `tts`, `transcribe` and `extract-audio` share: targets, batching, output, the summary.
enum RemoteActionCommand {
    static func spec(_ action: AIAction, summary: String, options: [OptionSpec] = []) -> CommandSpec {
        let producesText = action == .ocr || action == .transcribe
        return CommandSpec(
            action.rawValue, summary: summary,
            discussion: """
                TARGET is an Officer path or a local file. A local file is uploaded (resumably) into
                officer:/.officer-files/inbox, processed, and removed again unless --keep-remote. Each target's kind
                is checked first: an action that does not fit it is refused before anything is sent.
                \(producesText ? "The text goes to stdout (one '==> TARGET <==' header per target when there are several), or to -o." : "The produced file is downloaded to -o (a file, or a folder) or the current folder; on the server it stays beside an Officer target.")
                Results are cached by the target's content (local) or size and mtime (remote) and the parameters:
                an unchanged target is answered without a server call unless --refresh. Several targets run
                --jobs at a time; one failure does not stop the rest, and the exit status says if any failed.
                """,
            options: options + [
                OptionSpec(
                    ["--output", "-o"], .value(placeholder: "PATH"),
                    help: producesText
                        ? "write the text to PATH (a folder with several targets)"
                        : "save the produced file as PATH or into folder PATH"),
                OptionSpec(
                    ["--force", "-f"],
                    help: producesText
                        ? "replace existing local files"
                        : "replace existing files (the local copy, and the output beside an Officer target)"),
                OptionSpec(["--keep-remote"], help: "keep uploaded local files (and their outputs) in the inbox"),
                OptionSpec(["--refresh"], help: "ask the server even if the result is cached"),
                OptionSpec(["--jobs", "-j"], .value(placeholder: "N"), help: "targets processed at once (default: 2)"),
                OptionSpec(
                    ["--timeout"], .value(placeholder: "SECONDS"), help: "longest wait for one action (default: 300)"),
            ],
            positionals: [
                PositionalSpec(
                    "TARGET", help: "officer:/path or a local file", optional: action == .tts, variadic: true)
            ])
    }

    static func run(_ action: AIAction, _ parsed: ParsedCommand, _ context: CommandContext) async throws {
        let requests = try requests(action, parsed, context)
        let jobs = try parsed.number("jobs", in: 1...16) ?? 2
        let timeout = Double(try parsed.number("timeout", in: 1...86_400) ?? 300)
        let files = try context.files()
        try context.announceCache(files)
        // Each target's runner is its server's (a named remote's file goes to that remote).
        let runners = try requests.map { try files.actionRunner(for: $0, timeout: timeout) }
        let several = requests.count > 1
        let output = parsed.value("output")
        // With several targets -o names a folder, made when missing (as `tts -o DIR/` makes one for one target).
        if let output, several { try LocalFiles.makeOutputFolder(output) }
        let console = context.console
        let quiet = context.global.quiet || context.global.json
        var writeFailures: [any Error] = []
        let outcomes = await inOrder(Array(zip(requests, runners)), width: jobs) {
            (request: RemoteActionRequest, runner: RemoteActionRunner) -> Result<RemoteActionResult, any Error> in
            if !quiet, several { console.message("\(action.rawValue): \(request.target): started") }
            do {
                return .success(try await runner.run(request))
            } catch {
                return .failure(error)
            }
        } onEach: { (index: Int, outcome: Result<RemoteActionResult, any Error>) in
            if let error = report(
                outcome, request: requests[index], several: several, output: output, force: parsed.flag("force"),
                context: context)
            {
                writeFailures.append(error)
            }
        }
        let failures = outcomes.compactMap { if case .failure(let error) = $0 { error } else { nil } } + writeFailures
        if several, !context.global.quiet, !context.global.json {
            let cached = outcomes.filter { if case .success(let r) = $0 { r.fromCache } else { false } }.count
            console.message(
                "\(action.rawValue): \(outcomes.count - failures.count) of \(outcomes.count) done (\(cached) from the cache), \(failures.count) failed"
            )
        }
        if failures.count == 1, requests.count == 1 { throw failures[0] }
        if !failures.isEmpty { throw BatchRunner.summary(of: failures, total: requests.count) }
    }

    /// One request per target (or the `--text`), with this command's parameters.
    static func requests(_ action: AIAction, _ parsed: ParsedCommand, _ context: CommandContext) throws
        -> [RemoteActionRequest]
    {
        var targets: [ActionTarget] = []
        if let text = parsed.value("text") {
            guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw ArgumentError.invalidValue(
                    option: parsed.spelling("text"), value: text, reason: "nothing to speak")
            }
            targets.append(.text(text))
        }
        let files = try context.files()
        for argument in parsed.positionals {
            // The location's remote says what its files are to the server (an S3 remote: that it has no actions).
            targets.append(try files.actionTarget(for: try context.location(argument)))
        }
        guard !targets.isEmpty else {
            throw CLIError.usage("\(action.rawValue): give a TARGET\(action == .tts ? " or --text" : "")")
        }
        let format = parsed.value("format") ?? "mp3"
        guard ["mp3", "wav", "ogg", "m4a"].contains(format) else {
            throw ArgumentError.invalidValue(
                option: parsed.spelling("format"), value: format, reason: "mp3, wav, ogg or m4a")
        }
        let produces = action == .tts || action == .extractAudio
        let cwd = FileManager.default.currentDirectoryPath + "/"
        return targets.map { target in
            var request = RemoteActionRequest(action: action, target: target)
            request.language = parsed.value("language") ?? "eng"
            request.voice = parsed.value("voice") ?? "en"
            request.format = format
            request.force = parsed.flag("force")
            request.keepRemote = parsed.flag("keep-remote")
            request.refresh = parsed.flag("refresh")
            if produces, !parsed.flag("no-download") { request.download = parsed.value("output") ?? cwd }
            return request
        }
    }

    /// Prints one finished target: text to stdout (or -o), a saved file's line, or its error. Returns the
    /// error of writing the text to -o, which fails the target too.
    static func report(
        _ outcome: Result<RemoteActionResult, any Error>, request: RemoteActionRequest, several: Bool, output: String?,
        force: Bool,
        context: CommandContext
    ) -> (any Error)? {
        let quiet = context.global.quiet
        switch outcome {
        case .failure(let error):
            if context.global.json {
                context.printJSON(
                    ActionRecord(
                        failed: request.target, action: request.action.rawValue, error: context.describe(error),
                        context: context))
            } else if several {
                context.console.message("officer-files: " + context.describe(error))
            }
        case .success(let result):
            if context.global.json {
                // -o still writes the text; the record says where.
                var textFile: String?
                if let text = result.text, let output {
                    do {
                        textFile = try writeText(
                            text.hasSuffix("\n") || text.isEmpty ? text : text + "\n", to: output,
                            target: request.target, several: several, force: force)
                    } catch {
                        context.printJSON(
                            ActionRecord(
                                failed: request.target, action: request.action.rawValue, error: context.describe(error),
                                context: context))
                        return error
                    }
                }
                context.printJSON(ActionRecord(result, target: request.target, textFile: textFile, context: context))
                return nil
            }
            if let text = result.text {
                let line = text.hasSuffix("\n") || text.isEmpty ? text : text + "\n"
                if let output {
                    do {
                        let path = try writeText(
                            line, to: output, target: request.target, several: several, force: force)
                        if !quiet { context.console.message("Wrote \(path)") }
                    } catch {
                        if several { context.console.message("officer-files: " + context.describe(error)) }
                        return error
                    }
                } else {
                    if several { context.console.print("==> \(result.target) <==") }
                    context.console.printRaw(line)
                }
            } else if let saved = result.savedPath, !quiet {
                context.console.message(
                    "Saved \(saved) (\(ByteCountFormat.string(result.outputBytes ?? 0)))\(result.fromCache ? " from the cache" : ", \(result.engine) in \(DurationFormat.precise(seconds: result.seconds))")"
                )
            } else if let remote = result.remoteOutput {
                context.say("Wrote \(remote) on the server (\(ByteCountFormat.string(result.outputBytes ?? 0)))")
            }
        }
        return nil
    }

    /// Writes text whole or not at all, never over an existing file without --force (``AtomicFile``).
    static func writeText(_ text: String, to output: String, target: ActionTarget, several: Bool, force: Bool) throws
        -> String
    {
        var path = output
        var isDirectory: ObjCBool = false
        if several
            || (FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory) && isDirectory.boolValue)
        {
            path = (output as NSString).appendingPathComponent(target.name + ".txt")
        }
        try AtomicFile.write(Data(text.utf8), to: path, replace: force)
        return path
    }

    /// Runs `body` on at most `width` items at once and hands each outcome to `onEach` in input order,
    /// as soon as it and all before it are done.
    static func inOrder<Item: Sendable, Output: Sendable>(
        _ items: [Item], width: Int, _ body: @escaping @Sendable (Item) async -> Output,
        onEach: (Int, Output) -> Void
    ) async -> [Output] {
        var results = [Output?](repeating: nil, count: items.count)
        var nextToReport = 0
        await withTaskGroup(of: (Int, Output).self) { group in
            var started = 0
            while started < min(width, items.count) {
                let index = started
                group.addTask { (index, await body(items[index])) }
                started += 1
            }
            while let (index, output) = await group.next() {
                results[index] = output
                while nextToReport < items.count, let ready = results[nextToReport] {
                    onEach(nextToReport, ready)
                    nextToReport += 1
                }
                if started < items.count {
                    let index = started
                    group.addTask { (index, await body(items[index])) }
                    started += 1
                }
            }
        }
        return results.map { $0! }
    }
}
