import FileModel
import Foundation
import Journal
import Transfer

/// The journal, opened once on first use and shared by every operation; a damaged one it replaced is told as a
/// warning, once.
final class JournalSlot: Sendable {
    private let path: String?
    private let anchors: PathAnchors
    private let onWarning: (@Sendable (String) -> Void)?
    private let opened = LockedValue<TransferJournal?>(nil)

    init(path: String?, anchors: PathAnchors, onWarning: (@Sendable (String) -> Void)?) {
        self.path = path
        self.anchors = anchors
        self.onWarning = onWarning
    }

    func open() throws(SQLiteError) -> TransferJournal? {
        let (path, anchors) = (path, anchors)
        let opening = opened.withLock { opened -> Result<(TransferJournal?, isNew: Bool), SQLiteError> in
            if let opened { return .success((opened, false)) }
            guard let path else { return .success((nil, false)) }
            do throws(SQLiteError) {
                let journal = try TransferJournal(path: path, anchors: anchors)
                opened = journal
                return .success((journal, true))
            } catch {
                return .failure(error)
            }
        }
        let (journal, isNew) = try opening.get()
        if isNew, let recovery = journal?.openingReport { onWarning?(recovery.description) }
        return journal
    }
}
