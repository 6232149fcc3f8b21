import FileModel
import Foundation
import Officer

/// How the CLI tells of an upload's end, for `put` and `transfers resume` alike.
enum UploadReport {
    /// The result line (or JSON object) of a finished upload.
    static func finished(
        _ result: UploadResult, shown: String, destination: String, seconds: Double, reporter: ProgressReporter,
        context: CommandContext
    ) {
        if context.global.json {
            context.printJSON(
                TransferRecord(
                    source: context.shownLocation(shown), destination: destination, size: result.bytes,
                    resumedBytes: result.resumedBytes,
                    movedBytes: result.sentBytes, method: result.method.rawValue, sha256: result.sha256,
                    seconds: seconds, fromCache: false))
        } else if !context.global.quiet {
            var line =
                "Uploaded \(shown) to \(destination) (\(ByteCountFormat.string(result.bytes))) in \(DurationFormat.precise(seconds: seconds))"
            line += ", " + ByteCountFormat.rate(Double(result.sentBytes) / max(seconds, 0.001))
            if result.resumedBytes > 0 { line += ", resumed after \(ByteCountFormat.string(result.resumedBytes))" }
            if result.method == .multipart { line += ", multipart (the server has no tus)" }
            reporter.message(line)
        }
    }

    /// A paused upload (Ctrl-C) as the message that says what it left and what to run next; other errors as they are.
    static func explained(_ reported: any Error, shown: String, local: String? = nil, context: CommandContext)
        -> any Error
    {
        let error = reported.beneathReport
        // The token refused mid-upload: what the server keeps is said with the way back, exactly as it runs.
        if context.report(reported).category == .authentication, let local,
            let (confirmed, total) = journaledUpload(of: local, context),
            let login = OfficerFilesApp.hint(for: reported, context: context)
        {
            return CLIError.refused(
                "\(context.describe(reported)); \(shown) is paused at \(ByteCountFormat.string(confirmed)) of "
                    + "\(ByteCountFormat.string(total)), kept on the server: \(login), then run the same command to continue",
                .authentication)
        }
        if case RemotePathError.invalidComponent(let name) = error {
            // The name alone does not say which file of a batch it was.
            return CLIError.refused(
                "\(shown): its name cannot be stored on the server (\(FileName.problem(name) ?? "not a single name")); rename it",
                .usage)
        }
        guard case UploadError.paused(_, let confirmed, let total) = error else { return reported }
        return CLIError.refused(
            "\(shown): paused at \(ByteCountFormat.string(confirmed)) of \(ByteCountFormat.string(total)); run the same "
                + "command to continue, or 'officer-files transfers clean' to discard", .interrupted)
    }

    /// The bytes the journal says the server confirmed of an unfinished upload of `local`, and its size.
    private static func journaledUpload(of local: String, _ context: CommandContext) -> (Int64, Int64)? {
        let path = URL(fileURLWithPath: local).standardizedFileURL.path
        for case .upload(let upload) in (try? context.files().journaledTransfers()) ?? [] where upload.localPath == path
        {
            return (upload.parts.reduce(0) { $0 + $1.offset }, upload.fingerprint.size)
        }
        return nil
    }
}
