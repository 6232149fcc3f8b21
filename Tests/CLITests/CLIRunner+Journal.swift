import Foundation
import Journal
import TestSupport

extension CLIRunner {
    /// The journal as the command under test writes it, opened without the check, repair and migration a writer's
    /// open does: a poll every 20 ms beside a busy writer must neither contend for its write lock nor judge it; nil
    /// before the command made it.
    func watchedJournal() throws -> TransferJournal? {
        guard FileManager.default.fileExists(atPath: journalPath) else { return nil }
        return try TransferJournal(watching: journalPath)
    }
}
