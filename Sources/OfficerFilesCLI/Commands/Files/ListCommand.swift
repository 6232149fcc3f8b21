import FileModel
import Foundation
import HTTP
import Officer
import Transfer

/// `ls`: a folder's entries, or with `-R` the whole tree streamed page by page.
enum ListCommand: Command {
    static let spec = CommandSpec(
        "ls", summary: "list a remote folder",
        discussion: """
            With -R the tree is streamed page by page, so a folder of any size lists in bounded memory; --json then
            prints one entry per line. Each folder listed is kept in the cache: --offline shows the last listing seen.
            """,
        options: [
            OptionSpec(["--long", "-l"], help: "mode, size, modification time (UTC) and name"),
            OptionSpec(["--recursive", "-R"], help: "list every entry below the folder"),
        ],
        positionals: [
            PositionalSpec(
                "PATH",
                help:
                    "remote folder: officer:/path (default: officer:/), NAME:/path, NAME: (an S3 remote's buckets) or NAME:bucket/folder",
                optional: true, variadic: true)
        ])

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        let files = try context.files()
        if context.global.offline, parsed.flag("recursive") {
            throw CLIError.refused("ls -R needs the server: --offline shows one cached folder at a time", .refused)
        }
        let targets = try (parsed.positionals.isEmpty ? ["/"] : parsed.positionals).map {
            try context.location($0, plain: .officer)
        }
        for (index, target) in targets.enumerated() {
            if targets.count > 1, !context.global.json {
                context.console.print((index > 0 ? "\n" : "") + "\(target):")
            }
            if parsed.flag("recursive") {
                try await listRecursively(target, files: files, context: context, long: parsed.flag("long"))
            } else {
                try await listOne(target, files: files, context: context, long: parsed.flag("long"))
            }
        }
    }

    private static func listOne(_ target: Location, files: OfficerFiles, context: CommandContext, long: Bool)
        async throws
    {
        let listing: RemoteListing
        do {
            listing = try await files.list(target)
        } catch {
            throw context.offlineHint(
                error, command: "ls", location: target, gives: "shows its cached listing",
                kept: files.hasCachedListing(target))
        }
        if let listedAt = listing.listedAt, !context.global.quiet {
            context.console.message("offline: \(target) as listed \(TimeStamp.shown(listedAt))")
        }
        if context.global.json {
            for entry in listing.entries { context.printJSON(EntryRecord(entry)) }
            return
        }
        let width = listing.entries.map { String($0.size).count }.max() ?? 1
        for entry in listing.entries {
            context.console.print(long ? EntryFormatter.long(entry, sizeWidth: width) : EntryFormatter.short(entry))
        }
    }

    private static func listRecursively(_ target: Location, files: OfficerFiles, context: CommandContext, long: Bool)
        async throws
    {
        let prefix =
            target.description.hasSuffix("/") || target.description.hasSuffix(":")
            ? target.description : target.description + "/"
        for try await entry in files.walk(target) {
            if context.global.json {
                context.printJSON(EntryRecord(entry))
                continue
            }
            let shown = entry.location.description
            let relative = shown.hasPrefix(prefix) ? String(shown.dropFirst(prefix.count)) : shown
            // Streaming means no global column width; 12 digits fit files up to a terabyte.
            context.console.print(
                long
                    ? EntryFormatter.long(entry, sizeWidth: 12, name: relative)
                    : EntryFormatter.short(
                        entry, name: relative.hasSuffix("/") ? String(relative.dropLast()) : relative))
        }
    }
}
