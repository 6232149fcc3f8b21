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
        let started = Date()
        let cache = try source.remote == nil ? nil : context.contentCache()
        if source.remote == nil, context.global.offline { throw CLIError.usage("\(source.url): --offline serves only officer: paths") }
        let key = source.remote.map { context.cacheKey($0.path, kind: CacheKey.Kind.body, client: $0.client) }
        if let remote = source.remote, !context.global.offline {
            // The listed time to the millisecond (Last-Modified has whole seconds).
            let entry = try await remote.client.stat(remote.path)
            guard !entry.isDirectory else {
                throw CLIError.refused("\(remote.path): is a folder; officer-files copy fetches folders", .refused)
            }
            options.modificationTime = entry.mtime
        }
        if let cache, let key, let remote = source.remote, let cached = try CachedBody.open(cache, key: key) {
            // Offline the cached copy is the answer; online only when the server still reports its ETag.
            var current = context.global.offline
            if !current, let etag = cached.etag { current = try await currentETag(source, client: remote.client) == etag }
            if current {
                if options.modificationTime == nil { options.modificationTime = cached.entry.metadata["mtime"].flatMap(Double.init) }
                report(try downloader.install(from: cached.handle.fileDescriptor, expectedLength: cached.entry.size, to: destination, options: options), started, context)
                return
            }
        } else if context.global.offline, let remote = source.remote {
            throw context.notCachedOffline(remote.path)
        }
        let reporter = context.progressReporter()
        let display = PartsDisplay(reporter: reporter, name: (destination as NSString).lastPathComponent, context: context)
        let result: DownloadResult
        do {
            result = try await downloader.download(
                from: source.url, credential: source.credential, to: destination, options: options, onEvent: display.handle)
            display.finish(failed: false)
            reporter.close()
        } catch {
            display.finish(failed: true)
            reporter.close()
            throw error
        }
        if let cache, let key, let etag = result.etag, result.bytes <= cache.automaticEntryLimit {
            do {
                try cache.store(
                    contentsOf: result.path, for: key, version: etag,
                    metadata: options.modificationTime.map { ["mtime": String($0)] } ?? [:])
            } catch {
                if context.global.verbose { context.console.message("cache: not stored: \(error)") }
            }
        }
        report(result, started, context)
    }

    /// The ETag the server reports now (a HEAD request), to tell whether a cached copy is current.
    static func currentETag(_ source: DownloadSource, client: OfficerClient) async throws -> String? {
        let response = try await client.send(HTTPRequest(method: "HEAD", url: source.url, sink: .memory(limit: 0), credential: source.credential))
        return response.headers["ETag"]
    }

    static func report(_ result: DownloadResult, _ started: Date, _ context: CommandContext) {
        let seconds = Date().timeIntervalSince(started)
        if context.global.json {
            context.printJSON(
                GetResult(
                    path: result.path, bytes: result.bytes, resumedBytes: result.resumedBytes, fetchedBytes: result.fetchedBytes,
                    sha256: result.sha256, seconds: seconds, fromCache: result.fromCache))
        } else if !context.global.quiet {
            let rate = ByteCountFormat.rate(Double(result.fetchedBytes) / max(seconds, 0.001))
            var line = "Saved \(result.path) (\(ByteCountFormat.string(result.bytes))) in \(DurationFormat.precise(seconds: seconds))"
            line += result.fromCache ? ", from the cache" : ", \(rate)"
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
        var fromCache: Bool
    }
}

extension PartsDisplay {
    /// Shows download events: one line per range, plus the total.
    func handle(_ event: DownloadEvent) {
        switch event {
        case .started(let total, let segments, _):
            start(total: total, partSizes: segments.map { $0.upperBound - $0.lowerBound + 1 })
        case .progress(let segment, let done): progress(part: segment, done: done)
        case .retrying(let segment, let attempt, let delay, let reason):
            note("retrying range \(segment + 1) (attempt \(attempt)) in \(DurationFormat.precise(seconds: delay)): \(reason)")
        case .restarted(let reason): note("starting over: \(reason)")
        }
    }
}
