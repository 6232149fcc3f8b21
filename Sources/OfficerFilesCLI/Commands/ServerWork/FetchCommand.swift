import FileModel
import Foundation
import Officer

/// `fetch URL DEST`: the server downloads media (yt-dlp) or clones a repository (git) into a folder.
enum FetchCommand: Command {
    static let spec = CommandSpec(
        "fetch", summary: "have the server download a URL into a folder (yt-dlp or git clone)",
        discussion: """
            URLs whose path ends in .git (or with --git) are cloned with git; anything else goes to yt-dlp, which
            knows media pages and direct media links (--media). The server fetches only package http(s)
            addresses: loopback, private and link-local ones are refused, redirects included.
            """,
        options: [
            OptionSpec(["--git"], help: "clone with git whatever the URL looks like"),
            OptionSpec(["--media"], help: "download with yt-dlp whatever the URL looks like"),
            OptionSpec(
                ["--name"], .value(placeholder: "NAME"), help: "name of the cloned folder (default: from the URL)"),
            OptionSpec(["--force", "-f"], help: "replace existing files of the same names (yt-dlp)"),
        ] + JobFollower.options,
        positionals: [
            PositionalSpec("URL", help: "an http(s) URL"),
            PositionalSpec("DEST", help: "officer:/folder to fetch into"),
        ])

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        if parsed.flag("git"), parsed.flag("media") { throw CLIError.usage("give --git or --media, not both") }
        let engine: ServerFetchEngine = parsed.flag("git") ? .git : parsed.flag("media") ? .media : .automatic
        let files = try context.files()
        let folder = try context.remotePath(parsed.positionals[1])
        let job = try await files.server(of: folder).fetchIntoServer(
            parsed.positionals[0], into: folder, engine: engine, name: parsed.value("name"),
            overwrite: parsed.flag("force"))
        guard let final = try await JobFollower.settle(job, files: files, parsed, context) else { return }
        if context.global.json {
            context.printJSON(JobRecord(final))
            return
        }
        for entry in final.createdEntries {
            let path = final.place(entry.path)?.description ?? entry.path
            context.say("Fetched \(path)" + (entry.isDirectory ? "/" : " (\(ByteCountFormat.string(entry.size)))"))
        }
    }
}
