import Foundation
import Officer

extension CommandContext {
    /// An error in the CLI's words: the library's one-line message, plus the option that settles it where this
    /// command has one. The library names no option (an app has none); the CLI adds them here, once.
    func describe(_ reported: any Error) -> String {
        let error = reported.beneathReport
        if case FrontDoorRefusal.noServer = error { return CLIError.noServer.description }
        // A token in the environment wins over the config, so it is the one the server refused.
        if case OfficerError.notSignedIn(let server, _) = error,
            environment["OFFICER_TOKEN"].map({ !$0.isEmpty }) ?? false
        {
            return "\(locationNames().serverName(server)): the server does not accept the token in OFFICER_TOKEN"
        }
        let report = report(reported)
        if report.isUntrustedCertificate {
            return report.message
                + "; pass --cacert FILE (the certificate that signed it; login remembers it) or --insecure"
        }
        var message = report.message
        if let local = error as? LocalFileError, local.problem == .isAFolder, invokedCommand == "put" {
            message += " (upload its files, or use sync)"
        }
        guard let (option, wording) = Self.settlingOption(for: error), offeredOptions.contains(option) else {
            return message
        }
        // The option was given and did not settle it: only a file is ever replaced.
        if option == "--force", givenOptions.contains("force") {
            return "\(message) (a folder is never replaced, even with --force)"
        }
        return "\(message) (\(wording))"
    }

    /// `error` as the library tells it, in the terms of this run's servers, named remotes and object stores.
    func report(_ error: any Error) -> OfficerFilesError { OfficerFilesError(error, terms: locationNames()) }

    /// The servers and stores this run knows (from the options and the config; no token needed).
    func locationNames() -> LocationNames {
        let config = (try? configStore.load()) ?? OfficerConfig()
        var configuration = OfficerFiles.Configuration(server: try? serverURL(config: config))
        configuration.defaultRoot = defaultRoot
        configuration.officerRemotes = (config.officers ?? [:]).map {
            OfficerRemote(name: $0.key, server: $0.value.server)
        }
        configuration.objectStores = ((try? objectStoreRemotes()) ?? [:]).values.sorted { $0.name < $1.name }
        return LocationNames(configuration: configuration)
    }

    /// The option that settles `error`, and how to say so.
    static func settlingOption(for error: any Error) -> (option: String, wording: String)? {
        // A step of an AI action failed as the step would alone (a result file that exists: `tts` as `get`).
        switch error {
        case RemoteActionError.download(_, let inner): return settlingOption(for: inner)
        case RemoteActionError.upload(_, let inner): return settlingOption(for: inner)
        case RemoteActionError.server(_, let inner): return settlingOption(for: inner)
        default: break
        }
        return switch error {
        case DownloadError.destinationExists, ImageError.outputExists, FrontDoorRefusal.exists,
            OfficerError.conflict(_, _, "exists"):
            ("--force", "use --force to replace it")
        case let error as LocalFileError where error.problem == .exists:
            ("--force", "use --force to replace it")
        case OfficerError.notFound(request: "upload", _, _):
            ("--parents", "--parents creates it")
        case OfficerError.notFound(_, _, "parent_not_found"):
            ("--parents", "-p creates the missing folders")
        case FrontDoorRefusal.unsafeArchive(_, _, refusedWhole: true):
            // Said as it is: nothing of such an archive is extracted, so --force would change nothing.
            ("--force", "nothing of it is extracted, --force or not: the server refuses such an archive whole")
        case FrontDoorRefusal.unsafeArchive:
            ("--force", "--force asks the server anyway")
        case FrontDoorRefusal.isAFolder:
            ("--zip", "get --zip saves a folder as one zip file; sync copies it file by file")
        case ArchiveError.tooLarge:
            ("--max-size", "raise --max-size")
        case ImageError.wouldSendPosition:
            ("--keep-metadata", "--keep-metadata sends it as it is, GPS included")
        case OfficerError.conflict(_, _, "not_empty"), FrontDoorRefusal.needsRecursive:
            ("--recursive", "use rm -r for a folder and its contents")
        case FrontDoorRefusal.copyNeedsRecursive:
            ("--recursive", "use cp -r")
        case RemoteActionError.timedOut:
            ("--timeout", "raise --timeout")
        case RemoteActionError.outputExists:
            ("--force", "--force replaces it")
        default: nil
        }
    }
}
