import FileModel
import Foundation
import HTTP
import Officer
import Transfer

/// `cache stats|ls|clear|pin|unpin|verify`: the local content cache.
enum CacheCommand: Command {
    static let spec = CommandSpec(
        "cache", summary: "inspect, fill, pin or repair the local content cache",
        discussion: """
            The cache keeps file bodies, folder listings, previews and AI results, up to a hard limit
            (--cache-limit, OFFICER_CACHE_LIMIT, default 1G): least recently used entries go first, pinned ones never.
            """,
        subcommands: [
            CommandSpec("stats", summary: "entries and bytes, by kind, against the limit"),
            CommandSpec("ls", summary: "every entry, least recently used first"),
            CommandSpec(
                "clear", summary: "remove every unpinned entry",
                options: [OptionSpec(["--all"], help: "pinned entries too")]),
            CommandSpec(
                "pin", summary: "fetch files into the cache and keep them there for offline use",
                positionals: [PositionalSpec("PATH", help: "officer:/path of a file", variadic: true)]),
            CommandSpec(
                "unpin", summary: "let pinned files be evicted again",
                positionals: [PositionalSpec("PATH", help: "officer:/path of a file", variadic: true)]),
            CommandSpec(
                "verify", summary: "read every cached file, check the index against the files and repair what differs"),
        ])

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        let files = try context.files()
        try context.announceCache(files, required: true)
        switch parsed.path.last {
        case "stats": try stats(files, context)
        case "ls": try list(files, context)
        case "clear":
            let (count, bytes) = try files.clearCache(includingPinned: parsed.flag("all"))
            if context.global.json {
                context.printJSON(CacheClearedRecord(entries: count, size: bytes))
            } else {
                context.say(
                    "Removed \(CountFormat.string(count, "entry", "entries")) (\(ByteCountFormat.string(bytes))).")
            }
        case "pin": try await pin(parsed.positionals, files, context)
        case "unpin":
            for argument in parsed.positionals {
                let location = try context.location(argument, plain: .officer)
                try await files.unpin(location)
                if context.global.json {
                    context.printJSON(PinnedRecord(path: location.description, pinned: false))
                } else {
                    context.say("Unpinned \(location).")
                }
            }
        default: try await verify(files, context)
        }
    }

    static func stats(_ files: OfficerFiles, _ context: CommandContext) throws {
        let stats = try files.cacheStatistics()
        if context.global.json {
            context.printJSON(stats)
            return
        }
        // A limit of 0 keeps nothing: no share of it to show.
        let percent =
            stats.limit > 0 ? " (\(String(format: "%.1f", Double(stats.bytes) * 100 / Double(stats.limit)))%)" : ""
        context.console.print("Cache:    \(stats.directory)")
        context.console.print(
            "Used:     \(ByteCountFormat.string(stats.bytes)) of \(ByteCountFormat.string(stats.limit)) \(percent) in \(CountFormat.string(stats.entries, "entry", "entries"))"
        )
        context.console.print(
            "Pinned:   \(ByteCountFormat.string(stats.pinnedBytes)) in \(CountFormat.string(stats.pinnedEntries, "entry", "entries")) (never evicted)"
        )
        // Kinds are never cut: two kinds must not look alike (ai/ocr?languages=eng and ai/ocr?languages=deu).
        let width = max(12, stats.kinds.keys.map(\.count).max() ?? 0)
        for (kind, totals) in stats.kinds.sorted(by: { $0.key < $1.key }) {
            context.console.print(
                "  \(pad(kind, width)) \(CountFormat.string(totals.entries, "entry", "entries")), \(ByteCountFormat.string(totals.bytes))"
            )
        }
    }

    /// `text` padded with spaces to `width` columns, never cut.
    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    static func list(_ files: OfficerFiles, _ context: CommandContext) throws {
        let entries = try files.cacheEntries()
        if context.global.json {
            let names = context.locationNames()
            for entry in entries { context.printJSON(CacheEntryRecord(entry, names: names)) }
            return
        }
        if entries.isEmpty { context.say("The cache is empty.") }
        let width = max(10, entries.map(\.key.kind.count).max() ?? 0)
        let terms = context.locationNames()
        for entry in entries {
            let size = String(entry.size)
            context.console.print(
                "\(pad(entry.key.kind, width)) \(String(repeating: " ", count: max(0, 12 - size.count)))\(size) \(entry.pinned ? "pinned" : "      ") \(TimeStamp.shown(entry.accessed))  \(terms.location(server: entry.key.server, root: entry.key.root, path: entry.key.path))"
            )
        }
    }

    static func pin(_ arguments: [String], _ files: OfficerFiles, _ context: CommandContext) async throws {
        for argument in arguments {
            let path = try context.location(argument, plain: .officer)
            let outcome = try await files.pin(path)
            if context.global.json {
                context.printJSON(
                    PinnedRecord(
                        path: path.description, pinned: true, size: outcome.bytes, wasCached: outcome.wasCached))
                continue
            }
            context.say(
                "Pinned \(path) (\(outcome.wasCached ? (files.isOffline ? "" : ByteCountFormat.string(outcome.bytes) + ", ") + "already cached" : ByteCountFormat.string(outcome.bytes)))."
            )
        }
    }

    static func verify(_ files: OfficerFiles, _ context: CommandContext) async throws {
        let report = try await files.verifyCache()
        let names = context.locationNames()
        let name = { (entry: CacheEntry) in
            names.location(server: entry.key.server, root: entry.key.root, path: entry.key.path)
        }
        let dropped = report.damagedEntries.count + report.differingFromServer.count
        if context.global.json {
            context.printJSON(
                CacheVerifiedRecord(
                    rebuiltIndex: report.rebuiltIndex, orphanFilesRemoved: report.orphanFilesRemoved,
                    entriesDropped: report.entriesDropped,
                    staleTempFilesRemoved: report.staleTempFilesRemoved, entriesEvicted: report.entriesEvicted,
                    damaged: report.damagedEntries.map(name), differingFromServer: report.differingFromServer.map(name),
                    matchingServer: report.matchingServer, outdated: report.outdated,
                    serverNotAsked: report.serverNotAsked))
        } else {
            say(report, name: name, files, context)
        }
        if dropped > 0 { throw CLIError.refused("\(dropped) cached entries were damaged (dropped)", .failure) }
    }

    private static func say(
        _ report: CacheVerification, name: (CacheEntry) -> String, _ files: OfficerFiles, _ context: CommandContext
    ) {
        let compared =
            report.serverNotAsked.map { "; not compared with the server: \($0)" }
            ?? "; \(report.matchingServer) matched the server's SHA-256"
            + (report.outdated > 0 ? ", \(report.outdated) are older versions than the server's" : "")
        if !report.repairedAnything && report.entriesEvicted == 0 {
            let entries = (try? files.cacheStatistics().entries) ?? 0
            context.say(
                "The cache is consistent: \(CountFormat.string(entries, "entry", "entries")), every one with its file\(compared)."
            )
            return
        }
        if report.rebuiltIndex { context.say("The index was unreadable and was created anew.") }
        for (entry, why) in report.damagedEntries.map({ ($0, "its bytes no longer match their SHA-256") })
            + report.differingFromServer.map({ ($0, "its bytes differ from the server's copy of the same version") })
        {
            context.console.message(
                "damaged: \(entry.key.kind) of \(name(entry)): \(why); dropped"
                    + (entry.pinned
                        ? " (it was pinned: `officer-files cache pin \(ShellWord.quoted(name(entry)))` fetches it again)"
                        : ""))
        }
        context.say(
            "Repaired: \(report.entriesDropped) entries without their file dropped, \(report.damagedEntries.count + report.differingFromServer.count) damaged entries dropped, \(report.orphanFilesRemoved) unindexed files removed, \(report.staleTempFilesRemoved) stale temp files removed, \(report.entriesEvicted) entries evicted to fit the limit\(compared)."
        )
    }
}
