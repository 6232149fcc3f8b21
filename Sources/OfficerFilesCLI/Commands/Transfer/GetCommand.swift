import FileModel
import Foundation
import HTTP
import Officer
import Transfer

/// `get`: a resumable, verified, segmented download to a local file.
enum GetCommand: Command {
    static let spec = CommandSpec(
        "get", summary: "download a remote file or URL (resumable, verified, parallel ranges)",
        discussion: """
            Bytes go to a hidden temp file beside DEST and reach DEST only after the length (and --checksum)
            is verified. Rerunning the same command after any interruption continues where it stopped; a file
            that changed on the server meanwhile is fetched again from the start.
            Officer files up to an eighth of the cache limit are kept in the cache; a cached copy whose ETag the
            server still reports is copied instead of fetched, and --offline copies it without asking.
            """,
        options: [
            OptionSpec(
                ["--segments", "-x"], .value(placeholder: "N"), help: "parallel ranges (default: 4 from 64 MiB, else 1)"
            ),
            OptionSpec(["--force", "-f"], help: "replace an existing DEST"),
            OptionSpec(
                ["--checksum"], .value(placeholder: "sha256:HEX"), help: "refuse the file unless it has this SHA-256"),
            OptionSpec(["--bwlimit"], .value(placeholder: "RATE"), help: "at most RATE bytes/s in all (e.g. 500K, 2M)"),
            OptionSpec(
                ["--zip"],
                help: "one zip of every SRC (Officer files and folders), made by the server; resumable like a file"),
        ],
        positionals: [
            PositionalSpec(
                "SRC",
                help: "officer:/path, NAME:/path, NAME:bucket/key or an http(s) URL (several Officer paths with --zip)",
                variadic: true),
            PositionalSpec("DEST", help: "file or folder (default: the current folder)", optional: true),
        ],
        usages: [
            "[OPTIONS] SRC [DEST]", "[OPTIONS] SRC... DIR (several files, or a pattern: 'officer:/x/*.jpg')",
            "[OPTIONS] --zip SRC... [DEST]",
        ])

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        var options = DownloadOptions()
        options.force = parsed.flag("force")
        options.segments = try parsed.number("segments", in: 1...16)
        if let text = parsed.value("checksum") {
            guard let checksum = Checksum(parsing: text) else {
                throw ArgumentError.invalidValue(
                    option: "--checksum", value: text, reason: "expected sha256: and 64 hex digits")
            }
            options.checksum = checksum
        }
        options.bandwidthLimit = try parsed.value("bwlimit").map { try ArgumentValues.rate($0, option: "--bwlimit") }
        if parsed.flag("zip") { return try await zip(parsed, options, context) }
        var arguments = parsed.positionals
        let lastIsRemote = try arguments.count > 1 && context.location(arguments.last!).isRemote
        let destinationArgument = arguments.count > 1 && !lastIsRemote ? arguments.removeLast() : nil
        let sources = try arguments.map { argument in
            let source = try context.location(argument)
            guard source.isRemote else {
                throw CLIError.usage(
                    "\(argument): give a remote path (officer:/path, NAME:bucket/key) or an http(s) URL")
            }
            guard !source.isTopOfRoot else { throw CLIError.usage("\(argument): is the top of a root, not a file") }
            return source
        }
        let reporter = context.progressReporter()
        defer { reporter.close() }
        guard sources.count == 1 else {
            // Several files (a pattern such as 'officer:/Receipts/*.jpg' matched them) go into one folder.
            let folder = destinationArgument ?? "."
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
                let there =
                    FileManager.default.fileExists(atPath: folder) ? "that is a file" : "there is none at that path"
                throw CLIError.usage("\(folder): several files go into a folder, and \(there)")
            }
            try await BatchRunner.run(sources, context: context) { source in
                let destination = (folder as NSString).appendingPathComponent(
                    FileName.savedName(of: source))
                try await download(source, to: destination, options: options, reporter: reporter, context)
            }
            return
        }
        let source = sources[0]
        let destination = SavedFile.path(
            for: destinationArgument,
            name: FileName.savedName(of: source))
        try await download(source, to: destination, options: options, reporter: reporter, context)
    }

    /// One file to `destination`, shown on `reporter`.
    static func download(
        _ source: Location, to destination: String, options: DownloadOptions, reporter: ProgressReporter,
        _ context: CommandContext
    ) async throws {
        let started = Date()
        let display = PartsDisplay(
            reporter: reporter, name: (destination as NSString).lastPathComponent, context: context)
        let files = try context.files()
        // A remote whose files are cached: the cache is opened (and what it repaired said) before the transfer.
        if try files.fixedFeatures(of: source).contains(.cached) { try context.announceCache(files) }
        let operation = files.download(source, toPath: destination, options: options)
        let result: DownloadResult
        do {
            result = try await context.show(operation, on: display)
        } catch  where context.report(error).category == .cancelled {
            throw interruption(of: destination, files)
        } catch {
            // What still applies offline goes with it: a DEST that exists is replaced only with --force.
            let kept = (options.force ? ["--force"] : []) + (options.checksum.map { ["--checksum", "\($0)"] } ?? [])
            throw context.offlineHint(
                error, command: "get", options: kept, location: source, arguments: [destination],
                gives: "saves its cached copy", kept: files.hasCachedCopy(source))
        }
        report(result, source: source.description, started, context)
    }

    /// What Ctrl-C left, told as it is: a download the journal kept continues, one that could not be kept (a server
    /// without ranges or validators) starts over, and is never promised to continue.
    static func interruption(of destination: String, _ files: OfficerFiles) -> CLIError {
        let absolute = URL(fileURLWithPath: destination).standardizedFileURL.path
        let kept = ((try? files.journaledTransfers()) ?? []).contains {
            if case .download(let download) = $0 {
                return download.destination == absolute && !download.segments.isEmpty
            }
            return false
        }
        return .refused(
            kept
                ? "interrupted; run the same command again to continue \(destination)"
                : "interrupted; nothing of \(destination) was kept (the server cannot resume it): the same command starts it over",
            .interrupted)
    }

    /// `get --zip SRC... [DEST]`: the server's zip of Officer files and folders, downloaded like one file.
    static func zip(_ parsed: ParsedCommand, _ options: DownloadOptions, _ context: CommandContext) async throws {
        var arguments = parsed.positionals
        let lastIsRemote = try arguments.count > 1 && context.location(arguments.last!).isRemote
        let destinationArgument = arguments.count > 1 && !lastIsRemote ? arguments.removeLast() : nil
        let sources = try arguments.map { try context.location($0) }
        let name = sources.count == 1 ? (sources[0].isTopOfRoot ? "root" : sources[0].name) + ".zip" : "download.zip"
        let destination = SavedFile.path(for: destinationArgument, name: FileName.isValid(name) ? name : "download.zip")
        let started = Date()
        let reporter = context.progressReporter()
        defer { reporter.close() }
        let display = PartsDisplay(
            reporter: reporter, name: (destination as NSString).lastPathComponent, context: context)
        let files = try context.files()
        let result = try await context.show(
            files.downloadZip(of: sources, to: destination, options: options), on: display)
        report(result, source: sources.map(\.description).joined(separator: " "), started, context)
    }

    /// The result line (or JSON object) of a finished download. The console sends the line through the progress
    /// display, whose frame is cleared first, so the line is never erased by the frame's clearing at the end.
    static func report(_ result: DownloadResult, source: String, _ started: Date, _ context: CommandContext) {
        let seconds = Date().timeIntervalSince(started)
        if context.global.json {
            context.printJSON(
                TransferRecord(
                    source: source, destination: result.path, size: result.bytes, resumedBytes: result.resumedBytes,
                    movedBytes: result.fromCache ? 0 : result.fetchedBytes, method: result.fromCache ? "cache" : nil,
                    sha256: result.checkedBy == .sha256 ? result.sha256 : nil, seconds: seconds,
                    fromCache: result.fromCache, checked: result.checkedBy.rawValue))
        } else if !context.global.quiet {
            let rate = ByteCountFormat.rate(Double(result.fetchedBytes) / max(seconds, 0.001))
            var line =
                "Saved \(result.path) (\(ByteCountFormat.string(result.bytes))) in \(DurationFormat.precise(seconds: seconds))"
            line += result.fromCache ? ", from the cache" : ", \(rate)"
            if result.resumedBytes > 0 { line += ", resumed after \(ByteCountFormat.string(result.resumedBytes))" }
            switch result.checkedBy {
            case .sha256: if let digest = result.sha256 { line += ", sha256 verified (\(digest.prefix(12))…)" }
            case .md5: line += ", md5 verified"
            // Said of every copy, fetched or cached: bytes damaged on the way go unnoticed where nothing can check them.
            case .size: line += ", " + ContentCheck.sizeOnlyWords
            }
            context.console.message(line)
        }
    }
}
