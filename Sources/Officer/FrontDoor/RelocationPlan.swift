import FileModel
import Foundation

/// What a move or copy of several sources (mv(1), cp(1)) settles before the first source goes.
package struct RelocationPlan: Sendable, Equatable {
    /// The sources go into the destination (a folder) under their names; else the one source goes at that name.
    package var intoFolder: Bool
    /// The folder to make first (`parents`), nil when none is needed.
    package var folderToMake: Location?
    /// The server could not be reached (or the front door is offline) and the changes are to be kept: each is
    /// queued without trying it.
    package var queueAtOnce: Bool
}

extension OfficerFiles {
    /// The rules a move or copy of `sources` to `destination` keeps before anything changes: several sources go
    /// into a folder (written with `/`, or one now; when the changes are to be kept, one as the queue will have
    /// it); with `parents`, the names are checked, every source looked at and a copy of a folder without
    /// `recursive` refused first, so
    /// a refusal leaves no folder behind, and the folder the sources go into is named to be made.
    package func planRelocation(
        of sources: [Location], to destination: Location, copy: Bool, recursive: Bool, parents: Bool,
        queueing: Bool
    ) async throws -> RelocationPlan {
        // Between two remotes is a sync's work, said before either is asked anything.
        for source in sources where source.isRemote { try sameRemote(source, destination) }
        var plan = RelocationPlan(intoFolder: false, folderToMake: nil, queueAtOnce: queueing && isOffline)
        let queueable = queueing && keepsChanges(of: destination)
        var intoFolder = Self.writtenAsFolder(destination)
        if !intoFolder {
            do {
                if plan.queueAtOnce { throw FrontDoorRefusal.needsNetwork(destination.description) }
                intoFolder = try await takesEntriesIn(destination)
            } catch  where queueable && server.queues(after: error) {
                plan.queueAtOnce = true
                guard case .officer(let path) = destination else { throw error }
                intoFolder = try server.queuedDestinationIsFolder(path)
            }
        }
        plan.intoFolder = intoFolder
        if sources.count > 1, !intoFolder {
            throw FrontDoorRefusal.invalidValue(
                "with several sources, \(destination) must be an existing folder or end with /")
        }
        guard parents else { return plan }
        try Location.requireStorableNames(destination, all: true)
        if !plan.queueAtOnce {
            for source in sources where try await entry(source).isFolder && copy && !recursive {
                throw FrontDoorRefusal.copyNeedsRecursive(source.description)
            }
        }
        let folder = intoFolder || sources.count > 1 ? destination : destination.parent
        plan.folderToMake = folder.flatMap { $0.isTopOfRoot ? nil : $0 }
        return plan
    }
}
