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
        positionals: [PositionalSpec("SRC", help: "officer:/path, NAME:bucket/key or an http(s) URL", variadic: true)])

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        let rate = try parsed.value("bwlimit").map { try ArgumentValues.rate($0, option: "--bwlimit") }
        if let paths = try context.objectPaths(parsed.positionals) { return try await ObjectStoreCommands.cat(paths, bandwidthLimit: rate, context) }
        let sources = try parsed.positionals.map { try DownloadSource.resolve($0, context: context) }
        let files = try context.files()
        if sources.contains(where: { $0.remote != nil }) { try context.announceCache(files) }
        for source in sources {
            if let remote = source.remote {
                // An Officer file: the front door's read (the cache, 304, offline).
                try await files.read(remote, to: 1, outputName: "<stdout>", bandwidthLimit: rate)
            } else {
                try await files.read(url: source.url, to: 1, bandwidthLimit: rate)
            }
        }
    }
}
