import FileModel
import Foundation
import HTTP
import Preview
import Transfer

/// A sync under way: its ``SyncEvent``s, then its report (or an ``OfficerFilesError``).
public typealias SyncOperation = ProgressOperation<SyncEvent, SyncReport, OfficerFilesError>

/// A download, an upload or a batch of them under way: its ``FileModel/TransferEvent``s, then its result (or an
/// ``OfficerFilesError``).
public typealias FileOperation<Success: Sendable> = ProgressOperation<TransferEvent, Success, OfficerFilesError>

extension OfficerFiles {
    /// Makes `destination` like `source`, any two places but two URLs (a local folder and an Officer folder or
    /// an S3 prefix either way, or two remotes): streaming both listings, transferring what differs
    /// (resumable, through the journal; between two remotes each file is staged on its own beside the journal),
    /// deleting only after a clean run and within the limits. The direction is taken from the locations (a
    /// local destination is a pull). Both roots are checked first (a missing or wrong one throws before
    /// anything moves). The report's failures list what did not go; cancelling stops it (a rerun continues); a
    /// server that refuses the token (no sign-in replaced it) stops it at once, and that refusal is thrown
    /// (`OfficerError.notSignedIn`: sign in again, and the same sync continues).
    public func sync(from source: Location, to destination: Location, options: SyncOptions) -> SyncOperation {
        reported(
            destination,
            ProgressOperation { report in
                try await self.reporting(destination) {
                    try await self.runSync(from: source, to: destination, options: options, onEvent: report)
                }
            })
    }

    /// The same, run in the calling task with every event handed to `onEvent` as it happens (none thinned or
    /// dropped): for the watcher, whose catch-up acts on each deferred file.
    func runSync(
        from source: Location, to destination: Location, options given: SyncOptions,
        onEvent: @escaping @Sendable (SyncEvent) -> Void
    ) async throws -> SyncReport {
        // Refused before anything is listed: the destination's files would be the source's, and a deletion its own.
        if source.overlaps(destination) {
            throw FrontDoorRefusal.overlapping(source.description, destination.description)
        }
        var options = given
        options.direction = destination.isRemote || !source.isRemote ? .push : .pull
        // The front door's one clock: its waits for a server gone are on it too.
        options.clock = configuration.http.clock
        if options.imagePreparation == nil, let settings = options.preparingImages {
            let onWarning = configuration.onWarning
            options.imagePreparation = imagePreparation(settings, bestEffort: options.bestEffortImages).syncHooks {
                onWarning?($0)
            }
        }
        let destinationRemote = try remote(for: destination)
        var engine = SyncEngine(
            source: RemoteSyncSide(try remote(for: source), root: SyncRoot(source, options: options, isSource: true)),
            destination: RemoteSyncSide(
                destinationRemote, root: SyncRoot(destination, options: options, isSource: false)),
            stagingFolder: stagingFolder, options: options)
        engine.locationNames = locationNames
        let report = try await engine.runUntilRefused { event in
            if case .done(let action) = event { destinationRemote.synced(action, below: destination) }
            onEvent(event)
        }
        if let folder = source.localPath, !options.dryRun {
            await destinationRemote.settleUploads(from: folder, to: destination)
        }
        return report
    }

    /// Where files wait between their download and their upload in a sync between two remotes.
    var stagingFolder: String { Self.stagingFolder(configuration) }

    /// The staging folder `configuration` gives: beside the journal, else in the system's temporary folder.
    static func stagingFolder(_ configuration: Configuration) -> String {
        let journalFolder = configuration.journalPath.map { ($0 as NSString).deletingLastPathComponent }
        return (journalFolder ?? NSTemporaryDirectory() + "officer-files") + "/staging"
    }

    /// Where prepared copies of images wait for their upload: beside the cache (or in the system's temporary
    /// folder when no cache is configured), so a rerun after a kill finds the same bytes and resumes the same upload.
    var preparedFolder: String { Self.preparedFolder(configuration) }

    /// The prepared copies' folder `configuration` gives.
    static func preparedFolder(_ configuration: Configuration) -> String {
        configuration.cacheDirectory.map { ($0 as NSString).deletingLastPathComponent + "/prepared" }
            ?? NSTemporaryDirectory() + "officer-files-prepared"
    }

    /// Image preparation for uploads with these settings (`put`, a push sync, photos, attachments), into
    /// ``preparedFolder``, each copy named for its original as kept relative to the base folders.
    package func imagePreparation(_ options: ImagePreparationOptions, bestEffort: Bool = false)
        -> UploadImagePreparation
    {
        UploadImagePreparation(options: options, bestEffort: bestEffort, folder: preparedFolder, anchors: anchors)
    }
}
