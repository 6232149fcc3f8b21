import FileModel
import Foundation
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
        let options = try ImageSettings.parse(parsed, maxEdge: parsed.value("max-edge"))
        let inputs = Array(parsed.positionals.dropLast())
        let out = parsed.positionals.last!
        var isDirectory: ObjCBool = false
        let outIsFolder = FileManager.default.fileExists(atPath: out, isDirectory: &isDirectory) && isDirectory.boolValue
        if inputs.count > 1, !outIsFolder { throw CLIError.usage("with several images, \(out) must be an existing folder") }
        let preparer = ImagePreparer(options: options)
        let jobs: [(String, String)] = try inputs.map { input in
            guard outIsFolder else { return (input, out) }
            let format = try preparer.outputFormat(for: input)
            let base = ((input as NSString).lastPathComponent as NSString).deletingPathExtension
            return (input, (out as NSString).appendingPathComponent(base + "." + format.fileExtension))
        }
        let force = parsed.flag("force")
        let results = await ParallelRunner.map(jobs, width: ProcessInfo.processInfo.activeProcessorCount) { job in
            Result { () throws(ImageError) -> PreparedImage in try preparer.prepareFile(job.0, to: job.1, overwrite: force) }
        }
        var failures = 0
        for ((input, output), result) in zip(jobs, results) {
            switch result {
            case .success(let image):
                if context.global.json {
                    context.printJSON(Row(input: input, output: output, width: image.width, height: image.height, bytes: image.bytes, format: image.format.rawValue, original: image.usedOriginal))
                } else {
                    context.say("\(input) -> \(output): \(image.width)×\(image.height) \(image.format.rawValue), \(ByteCountFormat.string(image.bytes))" + (image.usedOriginal ? " (original kept: already fits and smaller)" : ""))
                }
            case .failure(let error):
                failures += 1
                if jobs.count > 1 { context.console.message("officer-files: \(error)") }
            }
        }
        if failures > 0 {
            if jobs.count == 1, let error = results[0].failureError { throw error }
            throw CLIError.refused("\(failures) of \(jobs.count) images failed", .failure)
        }
    }

    struct Row: Encodable {
        var input: String
        var output: String
        var width: Int
        var height: Int
        var bytes: Int64
        var format: String
        var original: Bool
    }
}
