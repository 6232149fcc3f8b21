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
        positionals: [PositionalSpec("PATH", help: "remote folder (default: officer:/)", optional: true, variadic: true)])

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        let client = try context.client()
        if context.global.offline, parsed.flag("recursive") {
            throw CLIError.usage("ls -R needs the server: --offline shows one cached folder at a time")
        }
        let targets = try (parsed.positionals.isEmpty ? ["/"] : parsed.positionals).map { try context.remotePath($0) }
        for (index, target) in targets.enumerated() {
            if targets.count > 1, !context.global.json {
                context.console.print((index > 0 ? "\n" : "") + "\(target):")
            }
            if parsed.flag("recursive") {
                try await listRecursively(target, client: client, context: context, long: parsed.flag("long"))
            } else {
                try await listOne(target, client: client, context: context, long: parsed.flag("long"))
            }
        }
    }

    private static func listOne(_ target: RemotePath, client: OfficerClient, context: CommandContext, long: Bool) async throws {
        let cache = try context.contentCache()
        let key = context.cacheKey(target, kind: CacheKey.Kind.listing, client: client)
        let listing: DirectoryListing
        if context.global.offline {
            guard let entry = try cache?.entry(for: key), let data = entry.contents(),
                let cached = try? JSONDecoder().decode(DirectoryListing.self, from: data)
            else { throw context.notCachedOffline(target, what: "listing") }
            if !context.global.quiet {
                context.console.message("offline: \(target) as listed \(HTTPDate.minuteStamp(entry.created) + " UTC")")
            }
            listing = cached
        } else {
            do {
                listing = try await client.list(target)
                if let cache, let data = try? JSONEncoder().encode(listing) {
                    do { try cache.store(data, for: key, version: "listing") } catch {
                        if context.global.verbose { context.console.message("cache: listing not stored: \(error)") }
                    }
                }
            } catch {
                // Like ls(1): naming a file lists just that file.
                guard case .badRequest(_, _, "not_a_directory") = error else {
                    if case .transport = error, (try? cache?.entry(for: key)) != nil {
                        context.console.message("hint: \(target) has a cached listing: ls --offline shows it")
                    }
                    throw error
                }
                listing = DirectoryListing(root: target.root, path: target.parent.path, entries: [try await client.stat(target)])
            }
        }
        if context.global.json {
            context.printJSON(listing)
            return
        }
        let width = listing.entries.map { String($0.size).count }.max() ?? 1
        for entry in listing.entries {
            context.console.print(long ? EntryFormatter.long(entry, sizeWidth: width) : EntryFormatter.short(entry))
        }
    }

    private static func listRecursively(_ target: RemotePath, client: OfficerClient, context: CommandContext, long: Bool)
        async throws
    {
        let prefix = target.path == "/" ? "/" : target.path + "/"
        for try await entry in client.walk(target) {
            if context.global.json {
                context.printJSON(entry)
                continue
            }
            let relative = entry.path.hasPrefix(prefix) ? String(entry.path.dropFirst(prefix.count)) : entry.path
            // Streaming means no global column width; 12 digits fit files up to a terabyte.
            context.console.print(long ? EntryFormatter.long(entry, sizeWidth: 12, name: relative) : EntryFormatter.short(entry, name: relative))
        }
    }
}
