import FileModel
import Foundation
import Journal
import Transfer

extension OfficerFiles {
    /// Makes `change` now, or keeps it to be made later when the server cannot be reached: nil when made, else
    /// the change kept. A kept change remembers what the client last saw of each path it touches (a cached listing
    /// of its folder is needed), so sending it later never overwrites or removes a version made meanwhile; a
    /// change that could never apply is refused at once. Only an Officer server's changes are kept; any other
    /// remote's change is made now, and its failure thrown as it is.
    public func makeOrQueue(_ change: FileChange) async throws(OfficerFilesError) -> PendingChange? {
        try await reporting(change.location) {
            guard keepsChanges(of: change.location) else {
                try await make(change)
                return nil
            }
            let item = try await server.applyOrQueue(
                { try queuedWrite(for: change) }, apply: { try await make(change) })
            return item.flatMap(PendingChange.init)
        }
    }

    /// Whether a change at `location` can be kept to be made later (an Officer server's; other remotes' changes
    /// are made at once or fail).
    package func keepsChanges(of location: Location) -> Bool {
        (try? fixedFeatures(of: location).contains(.queuedWrites)) ?? false
    }

    /// The changes kept and not yet made, oldest first: the list now, then again whenever it changes (a change
    /// kept, made, held or dropped, by this front door or another process sharing its journal). Ends when its
    /// reader stops; without a journal it gives one empty list.
    public func pendingChanges() -> AsyncStream<[PendingChange]> {
        JournalObservation.stream(of: try? journal, clock: configuration.http.clock) { [self] in
            try server.queuedWrites().compactMap(PendingChange.init)
        }
    }

    /// Sends the kept changes in order, one event per change as it is made (``PendingChange/heldBecause`` nil) or
    /// held (the server no longer has what it expected: a held change and the later ones touching its paths stay
    /// kept); the value is the changes left held. A network failure stops it, the rest still kept. One send runs
    /// at a time across processes; another running is a conflict.
    public func sendPendingChanges() -> ProgressOperation<PendingChange, [PendingChange], OfficerFilesError> {
        reported(nil, sendingPendingChanges())
    }

    private func sendingPendingChanges() -> ProgressOperation<PendingChange, [PendingChange], any Error> {
        ProgressOperation { report in
            try await self.reporting(nil) {
                let replay = self.server.replayQueue()
                for await event in replay {
                    switch event {
                    case .applied(let item), .foundApplied(let item), .conflict(let item), .blocked(let item):
                        if let change = PendingChange(item) { report(change) }
                    }
                }
                if try await replay.value.alreadyRunning { throw QueueError.replayRunning }
                return try self.server.queuedWrites().compactMap(PendingChange.init).filter { $0.heldBecause != nil }
            }
        }
    }

    /// Forgets a kept change: it will not be made.
    public func dropPendingChange(_ change: PendingChange) throws(OfficerFilesError) {
        do {
            try server.dropQueuedWrite(id: change.id)
        } catch {
            throw OfficerFilesError(error, terms: locationNames, about: change.location.description)
        }
    }

    /// Makes a change now through the operation it names.
    private func make(_ change: FileChange) async throws {
        switch change {
        case .makeFolder(let folder, let parents): _ = try await makeFolder(folder, parents: parents)
        case .upload(let file, let destination, let overwrite):
            _ = try await upload(file, to: destination, overwrite: overwrite).value
        case .move(let source, let destination, let overwrite):
            _ = try await move(source, to: destination, overwrite: overwrite)
        case .copy(let source, let destination, let overwrite, let recursive):
            _ = try await copy(source, to: destination, overwrite: overwrite, recursive: recursive)
        case .remove(let location, let recursive): _ = try await remove(location, recursive: recursive)
        }
    }

    /// The queued form of `change`, placed as the server will have it when the change is sent: into a folder
    /// (as written, queued, or last listed) by the source's name, else at that name.
    package func queuedWrite(for change: FileChange) throws -> QueuedWrite {
        func path(_ location: Location) throws -> RemotePath {
            guard case .officer(let path) = location else {
                throw FrontDoorRefusal.invalidValue("\(location): only an Officer server's changes are queued")
            }
            guard try server(of: path) === server else { throw QueueError.otherServer(location.description) }
            return path
        }
        func landing(of name: String, at destination: RemotePath) throws -> RemotePath {
            try server.queuedDestinationIsFolder(destination) ? destination.appending(name) : destination
        }
        func relocation(_ kind: QueuedWrite.Kind, _ source: Location, _ destination: Location) throws -> (
            RemotePath, RemotePath
        ) {
            let from = try path(source)
            let to = try path(destination)
            guard from.root == to.root else {
                throw FrontDoorRefusal.differentRemotes(source.description, destination.description)
            }
            return (from, try landing(of: from.name, at: to))
        }
        switch change {
        case .makeFolder(let folder, let parents):
            let folder = try path(folder)
            return QueuedWrite(kind: .makeFolder, root: folder.root, path: folder.path, parents: parents)
        case .upload(let file, let destination, let overwrite):
            let target = try landing(of: file.lastPathComponent, at: try path(destination))
            return QueuedWrite(
                kind: .upload, root: target.root, path: target.path, local: file.standardizedFileURL.path,
                overwrite: overwrite)
        case .move(let source, let destination, let overwrite):
            let (from, to) = try relocation(.move, source, destination)
            return QueuedWrite(
                kind: .move, root: from.root, path: from.path, destination: to.path, overwrite: overwrite)
        case .copy(let source, let destination, let overwrite, let recursive):
            let (from, to) = try relocation(.copy, source, destination)
            if !recursive, case .folder = try server.lastSeen(from) {
                throw FrontDoorRefusal.copyNeedsRecursive(source.description)
            }
            return QueuedWrite(
                kind: .copy, root: from.root, path: from.path, destination: to.path, recursive: recursive,
                overwrite: overwrite)
        case .remove(let location, let recursive):
            if location.isTopOfRoot { throw FrontDoorRefusal.topOfRoot(location.description) }
            let target = try path(location)
            return QueuedWrite(kind: .remove, root: target.root, path: target.path, recursive: recursive)
        }
    }
}
