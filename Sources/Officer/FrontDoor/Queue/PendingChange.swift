import FileModel
import Foundation
import Journal

/// A change kept while its server could not be reached (``OfficerFiles/makeOrQueue(_:)``), waiting to be sent
/// by ``OfficerFiles/sendPendingChanges()``, or held there because the server no longer has what it expected.
public struct PendingChange: Sendable, Equatable, Identifiable {
    /// Its number, in the order kept.
    public let id: Int64
    /// One line, as the command line writes it: `mv officer:/a.txt officer:/b.txt`.
    public let summary: String
    /// The change itself, as ``OfficerFiles/makeOrQueue(_:)`` took it (placed as the server will have it): what
    /// an app shows in its own words, or switches on.
    public let change: FileChange
    /// The path it changes (the source of a move or copy).
    public let location: Location
    /// Why it is held — what changed on the server since, or the held change it waits behind; nil while it waits
    /// its turn (and, in the events of ``OfficerFiles/sendPendingChanges()``, once it was made).
    public let heldBecause: String?

    /// The public face of a queued write.
    package init?(_ item: TransferJournal.QueuedItem) {
        guard let path = try? RemotePath(root: item.write.root, path: item.write.path),
            let change = Self.change(item.write, at: path)
        else { return nil }
        id = item.id
        summary = item.write.summary
        self.change = change
        location = .officer(path)
        heldBecause = item.state == .conflict || item.state == .blocked ? (item.note ?? "held") : nil
    }

    /// The typed change a queued write stands for; nil for one whose destination no longer parses.
    static func change(_ write: QueuedWrite, at path: RemotePath) -> FileChange? {
        let location = Location.officer(path)
        let destination = write.destination.flatMap { try? RemotePath(root: write.root, path: $0) }.map {
            Location.officer($0)
        }
        switch write.kind {
        case .makeFolder: return .makeFolder(location, parents: write.parents)
        case .remove: return .remove(location, recursive: write.recursive)
        case .upload:
            guard let local = write.local else { return nil }
            return .upload(URL(fileURLWithPath: local), to: location, overwrite: write.overwrite)
        case .move:
            guard let destination else { return nil }
            return .move(location, to: destination, overwrite: write.overwrite)
        case .copy:
            guard let destination else { return nil }
            return .copy(location, to: destination, overwrite: write.overwrite, recursive: write.recursive)
        }
    }
}
