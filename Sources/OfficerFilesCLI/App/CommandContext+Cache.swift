import FileModel
import Foundation
import HTTP
import Officer
import Transfer

extension CommandContext {
    /// The cache limit: `--cache-limit`, then `OFFICER_CACHE_LIMIT`, then 1 GiB.
    func cacheLimit() throws -> Int64 {
        let (option, text) =
            if let given = global.cacheLimit {
                ("--cache-limit", given)
            } else if let given = environment["OFFICER_CACHE_LIMIT"], !given.isEmpty {
                ("OFFICER_CACHE_LIMIT", given)
            } else { ("", "") }
        guard !text.isEmpty else { return ContentCache.defaultLimit }
        guard let limit = ByteCountFormat.parse(text), limit >= 0 else {
            throw ArgumentError.invalidValue(option: option, value: text, reason: "a size such as 500M or 2G")
        }
        return limit
    }

    /// Says what opening the cache repaired (a rebuilt index always; other repairs unless `-q`).
    func reportOpening(_ cache: ContentCache) {
        let report = cache.openingReport
        if report.rebuiltIndex {
            console.message(
                "warning: cache index \(cache.directory)/index.sqlite was unreadable; started a new one (\(report.orphanFilesRemoved) cached files dropped)"
            )
        } else if report.repairedAnything, !global.quiet {
            console.message(
                "cache: repaired after an interrupted run: \(report.staleTempFilesRemoved) temp files, \(report.orphanFilesRemoved) unindexed files, \(report.entriesDropped) entries without files removed"
            )
        }
    }
}

extension CommandContext {
    /// A failure to reach the server, said with the command that gives what the cache keeps of `location` (its
    /// listing for `ls`, its bytes for `cat` and `get`) when something is kept: one line, the failure first. Any
    /// other failure, or nothing kept, is the failure as it is. The command works as printed: with the server and
    /// root this run was given (the cache is kept per server and root), the command's own `options` that still
    /// apply offline, then the location and what follows it (`arguments`, each a word as typed).
    func offlineHint(
        _ error: any Error, command: String, options: [String] = [], location: Location, arguments: [String] = [],
        gives words: String, kept: @autoclosure () -> Bool
    ) -> any Error {
        guard ErrorCategory.of(error) == .network, !global.offline, kept() else { return error }
        let chosen = (global.server.map { ["--server", $0] } ?? []) + (global.root.map { ["--root", $0] } ?? [])
        let line = ["officer-files"] + chosen + [command, "--offline"] + options + [location.description] + arguments
        return CLIError.refused(
            describe(error) + "; " + line.map(ShellWord.quoted).joined(separator: " ") + " " + words,
            ExitCode.of(error))
    }
}
