import FileModel
import Foundation
import Officer

/// `attach`: local files sent as chat attachments; prints the ids a chat message names them by.
enum AttachCommand: Command {
    static let spec = CommandSpec(
        "attach", summary: "send files as chat attachments and print their ids",
        discussion: """
            Each FILE goes to the server's chat attachments (not into its files), and its id is printed, one
            line a file in the order given: ID, name, size, type. Images are prepared as a chat sends them
            first: longest edge 2048 px (--max-edge), JPEG at quality 85 (--quality), metadata such as GPS
            stripped; a PNG (a screenshot) stays PNG. Every image is prepared before anything is sent, so a
            damaged one fails the command with nothing stored. An interrupted attach cannot be continued: run
            it again.
            """,
        options: [
            OptionSpec(["--as-is"], help: "send images unchanged (full size, with their metadata)"),
            OptionSpec(
                ["--max-edge"], .value(placeholder: "PX"), help: "longest edge of a prepared image (default 2048)"),
            OptionSpec(
                ["--quality"], .value(placeholder: "Q"), help: "JPEG quality of a prepared image, 1-100 (default 85)"),
            OptionSpec(["--bwlimit"], .value(placeholder: "RATE"), help: "at most RATE bytes/s in all (e.g. 500K, 2M)"),
            OptionSpec(
                ["--remote"], .value(placeholder: "NAME"),
                help: "a named Officer remote (remote add NAME --officer URL); default: the default server"),
        ],
        positionals: [PositionalSpec("FILE", help: "local file(s) to send", variadic: true)])

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        var options = AttachmentOptions()
        options.prepareImages = !parsed.flag("as-is")
        let settings = try ImageSettings.parse(parsed, maxEdge: parsed.value("max-edge"), option: "--max-edge")
        options.maxEdge = settings.maxEdge
        options.quality = settings.quality
        options.bandwidthLimit = try parsed.value("bwlimit").map { try ArgumentValues.rate($0, option: "--bwlimit") }
        let locals = parsed.positionals
        // A file that is not there is named before anything else is asked (the server, a sign-in).
        for local in locals { try LocalFiles.requireLocalFile(local) }
        let files = try context.files()
        let reporter = context.progressReporter()
        defer { reporter.close() }
        let display = PartsDisplay(
            reporter: reporter, name: locals.count == 1 ? (locals[0] as NSString).lastPathComponent : "attachments",
            context: context)
        let urls = locals.map { URL(fileURLWithPath: $0) }
        let stored = try await context.show(
            files.attach(urls, on: parsed.value("remote"), options: options), on: display)
        for (local, attachment) in zip(locals, stored) {
            if context.global.json {
                context.printJSON(AttachmentRecord(attachment, local: local))
            } else {
                context.console.print(
                    "\(attachment.id)  \(attachment.name)  \(ByteCountFormat.string(attachment.size))  \(attachment.mime)"
                )
            }
        }
    }
}

/// One attachment sent (`attach --json`).
struct AttachmentRecord: Encodable, Sendable {
    /// The id a chat message names it by.
    var id: String
    /// The name it was sent under (a prepared HEIC goes as `.jpg`).
    var name: String
    /// Bytes stored.
    var size: Int64
    /// Its media type.
    var mime: String
    /// The local file it came from, absolute.
    var path: String

    init(_ attachment: Attachment, local: String) {
        id = attachment.id
        name = attachment.name
        size = attachment.size
        mime = attachment.mime
        path = URL(fileURLWithPath: local).standardizedFileURL.path
    }
}
