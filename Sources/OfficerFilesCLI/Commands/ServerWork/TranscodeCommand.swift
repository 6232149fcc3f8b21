import FileModel
import Foundation
import Officer
import Transfer

/// `transcode VIDEO`: H.264/AAC MP4 with the index first, made by the server as a job.
enum TranscodeCommand: Command {
    static let spec = CommandSpec(
        "transcode", summary: "transcode a video on the server to MP4 that plays while it downloads",
        discussion: """
            The server runs ffmpeg: H.264 video and AAC audio in MP4 with the index first (faststart), at most
            --height pixels high (never scaled up). The result goes beside the video (v.mkv -> v.mp4, or
            v.720p.mp4 with --height, named by the height made: a 480p video stays v.480p.mp4) unless -o names
            it; --get downloads it into the current folder afterwards.
            """,
        options: [
            OptionSpec(["--height"], .value(placeholder: "PIXELS"), help: "largest height of the result (64-4320)"),
            OptionSpec(["--format"], .value(placeholder: "FORMAT"), help: "container; only mp4 (the default)"),
            OptionSpec(["--output", "-o"], .value(placeholder: "REMOTE"), help: "officer:/path of the result"),
            OptionSpec(["--force", "-f"], help: "replace an existing result (on the server, and here with --get)"),
            OptionSpec(["--get"], help: "download the result into the current folder when done"),
        ] + JobFollower.options,
        positionals: [PositionalSpec("VIDEO", help: "officer:/path of a video")])

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        let files = try context.files()
        let video = try context.remotePath(parsed.positionals[0])
        let height = try parsed.number("height", in: 64...4320)
        let format = parsed.value("format") ?? "mp4"
        guard format == "mp4" else {
            throw ArgumentError.invalidValue(option: parsed.spelling("format"), value: format, reason: "only mp4")
        }
        if parsed.flag("get"), parsed.flag("detach") {
            throw CLIError.usage("--get needs the result: give --wait, not --detach")
        }
        let output = try parsed.value("output").map { try context.remotePath($0) }
        let job: Job
        do {
            job = try await files.server(of: video).transcode(
                video, height: height, format: format, output: output, overwrite: parsed.flag("force"))
        } catch OfficerError.notOffered {
            try await stream(video, height: height, output: output, parsed, context)
            return
        }
        var parsed = parsed
        if parsed.flag("get") { parsed.flags.insert("wait") }
        guard let final = try await JobFollower.settle(job, files: files, parsed, context) else { return }
        guard let made = final.createdEntries.first, let result = final.place(made.path) else {
            throw CLIError.refused("\(video): the server's job ended without naming the result", .failure)
        }
        if !context.global.json {
            context.say("Transcoded \(video) into \(result) (\(ByteCountFormat.string(made.size)))")
        }
        guard parsed.flag("get") else {
            if context.global.json { context.printJSON(JobRecord(final)) }
            return
        }
        var options = DownloadOptions()
        options.force = parsed.flag("force")
        let destination = FileManager.default.currentDirectoryPath + "/" + result.name
        let started = Date()
        let reporter = context.progressReporter()
        defer { reporter.close() }
        let display = PartsDisplay(reporter: reporter, name: result.name, context: context)
        let download = try await context.show(
            files.download(.officer(result), toPath: destination, options: options), on: display)
        GetCommand.report(download, source: result.description, started, context)
    }

    /// A server without transcoding into a file (the seed's) streams the transcode instead: it is saved here as it
    /// comes, into the current folder under the video's name with `.mp4`.
    static func stream(
        _ video: RemotePath, height: Int?, output: RemotePath?, _ parsed: ParsedCommand, _ context: CommandContext
    ) async throws {
        if height != nil || output != nil {
            throw CLIError.usage(
                "\(video): the server only streams transcodes (no --height, no -o on the server); run it without them")
        }
        let name =
            ((video.name as NSString).deletingPathExtension.isEmpty
                ? "video" : (video.name as NSString).deletingPathExtension) + ".mp4"
        let destination = FileManager.default.currentDirectoryPath + "/" + name
        context.console.message("warning: the server streams transcodes and keeps none: saving it here as \(name)")
        var options = DownloadOptions()
        options.force = parsed.flag("force")
        let started = Date()
        let reporter = context.progressReporter()
        defer { reporter.close() }
        let display = PartsDisplay(reporter: reporter, name: name, context: context)
        let download = try await context.show(
            try context.files().server(of: video).transcodeStream(video, to: destination, options: options), on: display
        )
        GetCommand.report(download, source: video.description, started, context)
    }
}
