import Foundation
import Officer

extension CommandContext {
    /// An error in the CLI's words: the library's one-line message, plus the option that settles it where this
    /// command has one. The library names no option (an app has none); the CLI adds them here, once.
    func describe(_ error: any Error) -> String {
        if case OfficerFilesError.noServer = error { return CLIError.noServer.description }
        guard let (option, wording) = Self.settlingOption(for: error), offeredOptions.contains(option) else { return "\(error)" }
        return "\(error) (\(wording))"
    }

    /// The option that settles `error`, and how to say so.
    static func settlingOption(for error: any Error) -> (option: String, wording: String)? {
        switch error {
        case DownloadError.destinationExists, ImageError.outputExists, OfficerFilesError.exists, OfficerError.conflict(_, _, "exists"):
            ("--force", "use --force to replace it")
        case let error as LocalFileError where error.problem == .exists:
            ("--force", "use --force to replace it")
        case OfficerError.notFound(request: "upload", _):
            ("--parents", "--parents creates it")
        case OfficerFilesError.unsafeArchive:
            ("--force", "--force asks the server anyway, which still refuses members that land outside the folder")
        case ArchiveError.tooLarge:
            ("--max-size", "raise --max-size")
        default: nil
        }
    }
}
