import Foundation
import Platform

/// An exclusive `flock` on a file in the journal's folder, held as long as this object lives. It dies with its
/// process (SIGKILL included), so a lock is never left behind; two holders in one process exclude each other too.
package final class JournalLock: Sendable {
    /// The locked file; nil for a lock that could not be created.
    private let file: OpenFile?

    private init(file: OpenFile?) { self.file = file }

    /// The lock on `path`, or nil while another holder has it. A lock file that cannot be created (the
    /// folder is read-only) locks nothing and is no reason to stop: a descriptor-less lock is returned.
    static func acquire(_ path: String) -> JournalLock? {
        guard let file = try? OpenFile(path, O_RDWR | O_CREAT, mode: 0o600) else { return JournalLock(file: nil) }
        guard SystemCalls.retryingInterrupts({ flock(file.descriptor, LOCK_EX | LOCK_NB) }) == 0 else { return nil }
        return JournalLock(file: file)
    }
}

extension TransferJournal {
    /// The right to replay the queue, or nil while another replay (in any process) holds it: one replay at a
    /// time, so no write is applied by two at once and none is marked a conflict because the other applied it.
    package func claimQueueReplay() -> JournalLock? { JournalLock.acquire(path + ".queue-lock") }

    /// Held by a running transfer for the time it runs, so that cleaning up (``isHeld(transfer:)``) leaves it alone.
    package func hold(transfer key: String) -> JournalLock? { JournalLock.acquire(lockPath(transfer: key)) }

    /// True while a running transfer holds `key` (``hold(transfer:)``).
    package func isHeld(transfer key: String) -> Bool { JournalLock.acquire(lockPath(transfer: key)) == nil }

    private func lockPath(transfer key: String) -> String {
        // FNV-1a of the key as kept: a short file name that stays the same when the base folders move (a
        // collision only makes a cleanup wait for another transfer).
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in keptKeyForms(key)[0].utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let folder = (path as NSString).deletingLastPathComponent + "/locks"
        mkdir(folder, 0o700)
        return folder + "/" + String(hash, radix: 16) + ".lock"
    }
}
