import Foundation
import Officer

extension CommandContext {
    /// An error in the CLI's words: the library's one-line message, plus the option that settles it where this
    /// command has one. The library names no option (an app has none); the CLI adds them here, once.
    func describe(_ error: any Error) -> String {
        "\(error)" + (offersForce && Self.isExistingTarget(error) ? " (use --force to replace it)" : "")
    }

    /// The target exists and replacing it is what `--force` does.
    static func isExistingTarget(_ error: any Error) -> Bool {
        switch error {
        case DownloadError.destinationExists, ImageError.outputExists: true
        case OfficerError.conflict(_, _, "exists"): true
        default: false
        }
    }
}
