import FileModel
import Foundation
import Officer

/// `extract ARCHIVE [DEST]`: extraction on the server, after reading the archive's safety report.
enum ExtractCommand: Command {
    static let spec = CommandSpec(
        "extract", summary: "extract an archive on the server into a new folder",
        discussion: """
            The archive's safety report is read first without downloading it (a zip's directory by ranges):
            members that would land outside the folder (absolute or '..' paths, links out), bombs and encrypted
            members refuse the archive unless --force. The server applies its own rules whatever the client
            says: nothing outside the destination, links and devices refused, a cap on entries and size.
            DEST is the folder to create (default: beside the archive, named after it); a DEST ending in '/'
            or naming an existing folder gets a folder named after the archive inside it.
            """,
        options: [OptionSpec(["--force", "-f"], help: "ask the server even if the safety report found risks")]
            + JobFollower.options,
        positionals: [
            PositionalSpec("ARCHIVE", help: "officer:/path of a zip or tar archive"),
            PositionalSpec("DEST", help: "officer:/folder to create", optional: true),
        ])

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        let files = try context.files()
        let archive = try context.remotePath(parsed.positionals[0])
        var destination: RemotePath?
        if parsed.positionals.count > 1 {
            let text = parsed.positionals[1]
            let given = try context.remotePath(text)
            var into = text.hasSuffix("/") || given.isRoot
            if !into, let entry = try? await files.stat(.officer(given)) { into = entry.isFolder }
            destination = into ? try given.appending(ArchiveName.folderName(for: archive.name)) : given
        }
        let job = try await files.server(of: archive).extract(archive, to: destination, force: parsed.flag("force"))
        guard let final = try await JobFollower.settle(job, files: files, parsed, context) else { return }
        let result = final.result(as: ExtractResponse.self)
        if context.global.json {
            context.printJSON(JobRecord(final))
        } else if let result {
            let folder = final.place(result.entry.path)?.description ?? result.entry.path
            context.say("Extracted \(CountFormat.string(result.extracted, "entry", "entries")) into \(folder)")
        }
    }
}
