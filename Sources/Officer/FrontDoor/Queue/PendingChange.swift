import FileModel
import Journal

/// A change kept while its server could not be reached (``OfficerFiles/makeOrQueue(_:)``), waiting to be sent
/// by ``OfficerFiles/sendPendingChanges()``, or held there because the server no longer has what it expected.
public struct PendingChange: Sendable, Equatable, Identifiable {
    /// Its number, in the order kept.
    public let id: Int64
    /// One line, as the command line writes it: `mv officer:/a.txt officer:/b.txt`.
    public let summary: String
    /// The path it changes (the source of a move or copy).
    public let location: Location
    /// Why it is held — what changed on the server since, or the held change it waits behind; nil while it waits
    /// its turn (and, in the events of ``OfficerFiles/sendPendingChanges()``, once it was made).
    public let heldBecause: String?

    /// The public face of a queued write.
    package init?(_ item: TransferJournal.QueuedItem) {
        guard let path = try? RemotePath(root: item.write.root, path: item.write.path) else { return nil }
        id = item.id
        summary = item.write.summary
        location = .officer(path)
        heldBecause = item.state == .conflict || item.state == .blocked ? (item.note ?? "held") : nil
    }
}
