import FileModel
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
        positionals: [
            PositionalSpec("SRC", help: "officer:/path, NAME:/path, NAME:bucket/key or an http(s) URL", variadic: true)
        ])

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        let rate = try parsed.value("bwlimit").map { try ArgumentValues.rate($0, option: "--bwlimit") }
        let sources = try parsed.positionals.map { argument in
            let location = try context.location(argument, plain: .officer)
            guard location.isRemote else {
                throw CLIError.usage(
                    "\(argument): give a remote path (officer:/path, NAME:bucket/key) or an http(s) URL")
            }
            return location
        }
        let files = try context.files()
        for source in sources where try files.fixedFeatures(of: source).contains(.cached) {
            try context.announceCache(files)
            break
        }
        for source in sources {
            // An Officer file comes through the cache (304, offline); every remote resumes a broken connection.
            do {
                if context.console.outputIsTerminal {
                    try await TerminalPipe.run(context.console) { descriptor in
                        _ = try await files.read(source, to: descriptor, outputName: "<stdout>", bandwidthLimit: rate)
                    }
                } else {
                    try await files.read(
                        source, to: context.console.outputDescriptor, outputName: "<stdout>", bandwidthLimit: rate)
                }
            } catch {
                throw context.offlineHint(
                    error, command: "cat", location: source, gives: "prints its cached copy",
                    kept: files.hasCachedCopy(source))
            }
        }
    }
}
