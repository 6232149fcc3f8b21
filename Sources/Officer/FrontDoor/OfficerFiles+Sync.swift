import FileModel
import Foundation
import HTTP
import Preview
import Transfer

/// A sync under way: its ``SyncEvent``s, then its report.
public typealias SyncOperation = ProgressOperation<SyncEvent, SyncReport>

extension OfficerFiles {
    /// Makes `remote` like `local` (push) or `local` like `remote` (pull), as `options` say: streaming both listings,
    /// transferring what differs (resumable, through the journal), deleting only after a clean run and within
    /// the limits. Both roots are checked first (a missing or wrong one throws before anything moves). The
    /// report's failures list what did not go; cancelling stops it (a rerun continues).
    public func sync(local: String, remote: RemotePath, options: SyncOptions) -> SyncOperation {
        SyncOperation { report in try await self.runSync(local: local, remote: remote, options: options, onEvent: report) }
    }

    /// The same, run in the calling task with every event handed to `onEvent` as it happens (none thinned or
    /// dropped): for the watcher, whose catch-up acts on each deferred file.
    func runSync(local: String, remote: RemotePath, options: SyncOptions, onEvent: @escaping @Sendable (SyncEvent) -> Void) async throws -> SyncReport {
        let side = OfficerSyncRemote(client: try client, base: remote, journal: try journal)
        return try await Self.runSync(local: local, remote: side, options: options, report: onEvent)
    }

    /// The same with any remote side (an object store's ``ObjectStore/syncRemote(_:)``).
    public func sync(local: String, with remote: any SyncRemote, options: SyncOptions) -> SyncOperation {
        SyncOperation { report in try await Self.runSync(local: local, remote: remote, options: options, report: report) }
    }

    /// Makes `destination` like `source`, two remotes (an Officer folder and an S3 prefix, either way): each
    /// file staged on its own beside the journal between its resumable download and its resumable upload.
    public func sync(from source: any SyncRemote, to destination: any SyncRemote, options: SyncOptions) -> SyncOperation {
        SyncOperation { report in
            let journalFolder = self.configuration.journalPath.map { ($0 as NSString).deletingLastPathComponent }
            let staging = (journalFolder ?? NSTemporaryDirectory() + "officer-files") + "/staging"
            let engine = RemoteSyncEngine(source: source, destination: destination, stagingFolder: staging, options: options)
            try await engine.checkRoots()
            return await engine.run(onEvent: report)
        }
    }

    /// The sync side of an Officer folder, for ``sync(from:to:options:)``.
    public func syncRemote(_ path: RemotePath) throws -> OfficerSyncRemote {
        OfficerSyncRemote(client: try client, base: path, journal: try journal)
    }

    private static func runSync(
        local: String, remote: any SyncRemote, options: SyncOptions, report: @escaping @Sendable (SyncEvent) -> Void
    ) async throws -> SyncReport {
        let engine = SyncEngine(localRoot: local, remote: remote, options: options)
        try await engine.checkRoots()
        return await engine.run(onEvent: report)
    }

    /// Image preparation for uploads with these settings, into the standard folder beside the cache (or the
    /// system's temporary folder when no cache is configured).
    public func imagePreparation(_ options: ImagePreparationOptions, bestEffort: Bool = false) -> UploadImagePreparation {
        let folder = configuration.cacheDirectory.map { ($0 as NSString).deletingLastPathComponent + "/prepared" }
            ?? NSTemporaryDirectory() + "officer-files-prepared"
        return UploadImagePreparation(options: options, bestEffort: bestEffort, folder: folder)
    }
}
