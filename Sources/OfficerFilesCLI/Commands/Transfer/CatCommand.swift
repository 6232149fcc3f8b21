import Foundation
import HTTP
import Officer
import Transfer

/// `cat`: a remote file or URL to stdout, resuming transparently after network failures.
enum CatCommand: Command {
    static let spec = CommandSpec(
        "cat", summary: "print a remote file or URL to stdout",
        discussion: """
            Officer files are cached: a second cat of an unchanged file asks the server with If-None-Match and
            prints the cached copy on 304. With --offline the cached copy is printed without asking.
            """,
        options: [OptionSpec(["--bwlimit"], .value(placeholder: "RATE"), help: "at most RATE bytes/s")],
        positionals: [PositionalSpec("SRC", help: "officer:/path or an http(s) URL", variadic: true)])

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        let rate = try parsed.value("bwlimit").map { try GetCommand.parseRate($0, option: "--bwlimit") }
        let sources = try parsed.positionals.map { try DownloadSource.resolve($0, context: context) }
        let cache = try context.contentCache()
        let downloader = SegmentedDownloader(http: context.httpClient(), journal: nil)
        for source in sources {
            guard let remote = source.remote, let cache else {
                if context.global.offline { throw CLIError.usage("\(source.url): --offline serves only officer: paths") }
                _ = try await downloader.stream(
                    from: source.url, credential: source.credential, to: 1, copy: nil, ifNoneMatch: nil, bandwidthLimit: rate,
                    requireLength: source.remote != nil)
                continue
            }
            let key = context.cacheKey(remote.path, kind: CacheKey.Kind.body, client: remote.client)
            let cached = try CachedBody.open(cache, key: key)
            if context.global.offline {
                guard let cached else { throw context.notCachedOffline(remote.path) }
                try cached.copy(to: 1, name: "<stdout>")
                continue
            }
            let staged = try? cache.stage()
            let outcome = try await downloader.stream(
                from: source.url, credential: source.credential, to: 1,
                copy: staged.map { ($0.fileDescriptor, cache.automaticEntryLimit) }, ifNoneMatch: cached?.etag, bandwidthLimit: rate,
                requireLength: true)
            if outcome.notModified, let cached {
                if context.global.verbose { context.console.message("cache: \(remote.path) unchanged on the server (304): printing the cached copy") }
                try cached.copy(to: 1, name: "<stdout>")
            } else {
                CachedBody.keep(staged, in: cache, key: key, length: outcome.written, etag: outcome.etag, context: context)
            }
        }
    }
}
