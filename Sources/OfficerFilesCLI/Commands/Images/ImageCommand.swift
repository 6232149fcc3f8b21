import FileModel
import Foundation
import Officer
import Preview

/// `image prepare`: resize, compress and strip images locally, as `put --resize` does before uploading.
enum ImageCommand: Command {
    static let spec = CommandSpec(
        "image", summary: "prepare images locally (resize, compress, strip metadata)",
        subcommands: [
            CommandSpec(
                "prepare", summary: "resize to a longest edge, re-encode, strip metadata",
                discussion: """
                    One file to OUT, or several into the folder OUT (the extension follows the output format).
                    Images are prepared in parallel, one per core. A damaged image fails with a message naming it;
                    the others still go through.
                    """,
                options: [
                    OptionSpec(["--max-edge"], .value(placeholder: "N"), help: "longest edge in pixels (default 2048)"),
                    OptionSpec(["--force", "-f"], help: "replace existing outputs (never an input)"),
                ] + ImageSettings.options,
                positionals: [
                    PositionalSpec("IN", help: "image files", variadic: true),
                    PositionalSpec("OUT", help: "output file, or folder for several"),
                ])
        ])

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        let options = try ImageSettings.parse(parsed, maxEdge: parsed.value("max-edge"), option: "--max-edge")
        let inputs = Array(parsed.positionals.dropLast())
        let outcomes = try await context.files().prepareImages(
            inputs, to: parsed.positionals.last!, options: options, overwrite: parsed.flag("force"))
        var failures = 0
        for outcome in outcomes {
            let (input, output) = (outcome.input, outcome.output)
            switch outcome.result {
            case .success(let image):
                if context.global.json {
                    context.printJSON(
                        ImageRecord(
                            source: context.shownLocation(input), destination: context.shownLocation(output),
                            width: image.width, height: image.height, size: image.bytes, format: image.format.rawValue,
                            original: image.usedOriginal))
                } else {
                    context.say(
                        "\(input) -> \(output): \(image.width)×\(image.height) \(image.format.rawValue), \(ByteCountFormat.string(image.bytes))"
                            + (image.usedOriginal ? " (original kept: already fits and smaller)" : ""))
                }
            case .failure(let error):
                failures += 1
                if outcomes.count > 1 { context.console.message("officer-files: " + context.describe(error)) }
            }
        }
        if failures > 0 {
            if outcomes.count == 1, let error = outcomes[0].result.failureError { throw error }
            throw CLIError.partialFailure(failed: failures, total: outcomes.count)
        }
    }
}
