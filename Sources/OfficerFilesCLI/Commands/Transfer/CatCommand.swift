import Foundation
import Transfer

/// `cat`: a remote file or URL to stdout, resuming transparently after network failures.
enum CatCommand: Command {
    static let spec = CommandSpec(
        "cat", summary: "print a remote file or URL to stdout",
        options: [OptionSpec(["--bwlimit"], .value(placeholder: "RATE"), help: "at most RATE bytes/s")],
        positionals: [PositionalSpec("SRC", help: "officer:/path or an http(s) URL", variadic: true)])

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        let rate = try parsed.value("bwlimit").map { try GetCommand.parseRate($0, option: "--bwlimit") }
        let sources = try parsed.positionals.map { try DownloadSource.resolve($0, context: context) }
        let downloader = SegmentedDownloader(http: context.httpClient(), journal: nil)
        for source in sources {
            _ = try await downloader.stream(from: source.url, bearerToken: source.token, to: 1, bandwidthLimit: rate)
        }
    }
}
