import FileModel
import Foundation
import HTTP
import Officer
import Preview
import Transfer

/// `info`: what a file is and how the Officer viewer would show it, for local files and `officer:` paths
/// (the latter from the listing and the first 64 KiB, fetched with a Range request). The facts are the
/// library's (`FileFacts`, `OfficerFiles.facts(of:)`); this command renders them.
enum InfoCommand: Command {
    static let spec = CommandSpec(
        "info", summary: "show a file's type, viewer, AI actions and metadata (local or officer:)",
        positionals: [PositionalSpec("PATH", help: "local file, officer:/path or NAME:bucket/key", variadic: true)])

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        // Local files are read on every core at once; remote ones one request at a time. Output keeps the
        // order of the arguments and is written in one piece per batch of results.
        let files = try context.files()
        let locations = try context.locations(parsed.positionals)
        var results = files.facts(of: locations).makeAsyncIterator()
        let output = OutputBuffer()
        // What was found is printed even when another path failed; the failure then sets the exit status.
        defer { context.console.printRaw(output.take()) }
        try await BatchRunner.run(locations, context: context) { location in
            let info: FileFacts
            do {
                guard let facts = try await results.next()?.get() else { throw CancellationError() }
                info = facts
            } catch {
                // What came before is printed before this failure is told: the output keeps the arguments' order.
                context.console.printRaw(output.take())
                throw error
            }
            if context.global.json {
                output.append(FactsRecord(info, path: context.fullLocation(location)).jsonLine + "\n")
            } else {
                output.append((output.isEmpty ? "" : "\n") + render(info) + "\n")
            }
            if output.count > 1 << 16 { context.console.printRaw(output.take()) }
        }
    }

    static func render(_ info: FileFacts) -> String {
        // The language where it says more than the viewer (`code (python)`, not `markdown (markdown)`).
        let language: String? = info.type.language == info.type.viewer.rawValue ? nil : info.type.language
        var lines = [
            "    Path: \(TerminalText.escaped(info.path))",
            "    Size: \(info.size) (\(ByteCountFormat.string(info.size)))",
            "Modified: \(EntryFormatter.date(info.mtime))",
            "    MIME: \(info.type.mime); charset=\(info.type.charset)"
                + (info.type.fromExtension ? " (from the extension)" : ""),
            "  Viewer: \(info.type.viewer.rawValue)" + (language.map { " (\($0))" } ?? ""),
            " Actions: "
                + (info.type.actions.isEmpty ? "none" : info.type.actions.map(\.rawValue).joined(separator: ", ")),
        ]
        if let description = info.description { lines.append(" Content: \(description)") }
        if let mode = info.mode { lines.insert("    Mode: \(EntryFormatter.modeLine(mode, type: "-"))", at: 3) }
        if let image = info.image {
            var text = "   Image: \(image.width)×\(image.height)"
            if image.orientation != 1 { text += ", EXIF orientation \(image.orientation)" }
            if let camera = image.camera { text += ", camera \(camera)" }
            if let taken = image.taken { text += ", taken \(taken)" }
            text += image.position.map { ", GPS \($0)" } ?? (image.hasGPS ? ", GPS position (unreadable)" : ", no GPS")
            lines.append(text)
        }
        if let count = info.lines { lines.append("    Text: \(count) line" + (count == 1 ? "" : "s")) }
        if let pages = info.pdfPages { lines.append("     PDF: \(pages) page" + (pages == 1 ? "" : "s")) }
        for (index, line) in (info.firstLines ?? []).enumerated() {
            lines.append((index == 0 ? "   Start: " : "          ") + line)
        }
        return lines.joined(separator: "\n")
    }
}

/// Output collected between writes.
final class OutputBuffer {
    private var text = ""
    private var written = false
    var count: Int { text.utf8.count }
    var isEmpty: Bool { text.isEmpty && !written }
    func append(_ more: String) { text += more }
    func take() -> String {
        defer {
            written = written || !text.isEmpty
            text = ""
        }
        return text
    }
}
