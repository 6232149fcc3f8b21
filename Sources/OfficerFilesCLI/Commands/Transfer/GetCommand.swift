import FileModel
import Foundation
import Transfer

/// `get`: a resumable, verified, segmented download to a local file.
enum GetCommand: Command {
    static let spec = CommandSpec(
        "get", summary: "download a remote file or URL (resumable, verified, parallel ranges)",
        discussion: """
            Bytes go to a hidden temp file beside DEST and reach DEST only after the length (and --checksum)
            is verified. Rerunning the same command after any interruption continues where it stopped; a file
            that changed on the server meanwhile is fetched again from the start.
            """,
        options: [
            OptionSpec(["--segments", "-x"], .value(placeholder: "N"), help: "parallel ranges (default: 4 from 64 MiB, else 1)"),
            OptionSpec(["--force", "-f"], help: "replace an existing DEST"),
            OptionSpec(["--checksum"], .value(placeholder: "sha256:HEX"), help: "refuse the file unless it has this SHA-256"),
            OptionSpec(["--bwlimit"], .value(placeholder: "RATE"), help: "at most RATE bytes/s in all (e.g. 500K, 2M)"),
        ],
        positionals: [
            PositionalSpec("SRC", help: "officer:/path or an http(s) URL"),
            PositionalSpec("DEST", help: "file or folder (default: the current folder)", optional: true),
        ])

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        var options = DownloadOptions()
        options.force = parsed.flag("force")
        if let text = parsed.value("segments") {
            guard let count = Int(text), (1...16).contains(count) else {
                throw ArgumentError.invalidValue(option: "--segments", value: text, reason: "a number from 1 to 16")
            }
            options.segments = count
        }
        if let text = parsed.value("checksum") {
            guard let checksum = Checksum(parsing: text) else {
                throw ArgumentError.invalidValue(option: "--checksum", value: text, reason: "expected sha256: and 64 hex digits")
            }
            options.checksum = checksum
        }
        options.bandwidthLimit = try parsed.value("bwlimit").map { try parseRate($0, option: "--bwlimit") }
        let source = try DownloadSource.resolve(parsed.positionals[0], context: context)
        let destination = source.destination(for: parsed.positionals.count > 1 ? parsed.positionals[1] : nil)
        let journal = try TransferJournal(path: TransferJournal.defaultPath(environment: context.environment))
        let downloader = SegmentedDownloader(http: context.httpClient(), journal: journal)
        let reporter = context.progressReporter()
        let display = DownloadDisplay(reporter: reporter, name: (destination as NSString).lastPathComponent, context: context)
        let started = Date()
        let result: DownloadResult
        do {
            result = try await downloader.download(
                from: source.url, bearerToken: source.token, to: destination, options: options, onEvent: display.handle)
            display.finish(failed: false)
        } catch {
            display.finish(failed: true)
            throw error
        }
        let seconds = Date().timeIntervalSince(started)
        if context.global.json {
            context.printJSON(GetResult(path: result.path, bytes: result.bytes, resumedBytes: result.resumedBytes, fetchedBytes: result.fetchedBytes, sha256: result.sha256, seconds: seconds))
        } else if !context.global.quiet {
            let rate = ByteCountFormat.rate(Double(result.fetchedBytes) / max(seconds, 0.001))
            var line = "Saved \(result.path) (\(ByteCountFormat.string(result.bytes))) in \(DurationFormat.precise(seconds: seconds)), \(rate)"
            if result.resumedBytes > 0 { line += ", resumed after \(ByteCountFormat.string(result.resumedBytes))" }
            if let digest = result.sha256 { line += ", sha256 verified (\(digest.prefix(12))…)" }
            context.console.message(line)
        }
    }

    static func parseRate(_ text: String, option: String) throws -> Int64 {
        let trimmed = text.hasSuffix("/s") ? String(text.dropLast(2)) : text
        guard let value = ByteCountFormat.parse(trimmed), value > 0 else {
            throw ArgumentError.invalidValue(option: option, value: text, reason: "a rate such as 500K or 2M")
        }
        return value
    }

    struct GetResult: Encodable {
        var path: String
        var bytes: Int64
        var resumedBytes: Int64
        var fetchedBytes: Int64
        var sha256: String?
        var seconds: Double
    }
}

/// Turns download events into progress lines: one per range, plus the total.
final class DownloadDisplay: @unchecked Sendable {
    private let reporter: ProgressReporter
    private let name: String
    private let verbose: Bool
    private let console: Console
    private let lock = NSLock()
    private var ids: [Int] = []

    init(reporter: ProgressReporter, name: String, context: CommandContext) {
        self.reporter = reporter
        self.name = name
        verbose = context.global.verbose
        console = context.console
    }

    func handle(_ event: DownloadEvent) {
        switch event {
        case .started(let total, let segments, _):
            lock.withLock {
                for id in ids { reporter.finish(id, failed: true) }
                if segments.count <= 1 {
                    ids = [reporter.start(name: name, total: total)]
                } else {
                    reporter.itemLabel = "parts"
                    ids = segments.enumerated().map { index, range in
                        reporter.start(name: "\(name) [\(index + 1)/\(segments.count)]", total: range.upperBound - range.lowerBound + 1)
                    }
                }
            }
        case .progress(let segment, let done):
            if let id = lock.withLock({ segment < ids.count ? ids[segment] : nil }) { reporter.update(id, done: done) }
        case .retrying(let segment, let attempt, let delay, let reason):
            if verbose { console.message("retrying range \(segment + 1) (attempt \(attempt)) in \(DurationFormat.precise(seconds: delay)): \(reason)") }
        case .restarted(let reason):
            if verbose { console.message("starting over: \(reason)") }
        }
    }

    func finish(failed: Bool) {
        lock.withLock { for id in ids { reporter.finish(id, failed: failed) } }
        reporter.close()
    }
}
