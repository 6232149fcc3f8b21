import Foundation
import Platform

/// When a local file is done being written and may go up: unchanged for ``seconds`` (``openSeconds`` while its
/// writer still holds it open). One rule for the watcher's live events and for a push that must not send a file
/// half written (the watcher's catch-up), so a restart sends nothing a running watch would not.
package struct SettleRule: Sendable, Equatable {
    /// Seconds a closed file must stay unchanged.
    package var seconds: Double
    /// Seconds a file its writer keeps open must stay unchanged (a log that is never closed).
    package var openSeconds: Double

    /// A rule of `seconds` for closed files and `openSeconds` for open ones.
    package init(seconds: Double, openSeconds: Double) {
        self.seconds = seconds
        self.openSeconds = openSeconds
    }

    /// Whether a file unchanged for `unchangedFor` seconds has settled.
    package func isSettled(unchangedFor: Double, open: Bool) -> Bool {
        unchangedFor >= (open ? openSeconds : seconds)
    }

    /// Whether the file at `path`, listed as `size` bytes modified at `mtime`, has settled by the wall clock:
    /// still as listed, and its last change (the later of its modification and status-change times, which no
    /// writer can set back) at least ``seconds`` ago. A file with no open writer seen is taken as closed; one
    /// that is gone has nothing left to wait for. A change dated in the future (a clock set back, a file from
    /// elsewhere) is not a write in progress.
    func isSettled(_ path: String, listedSize size: Int64, mtime: Double, now: Double = Date().timeIntervalSince1970)
        -> Bool
    {
        var info = stat()
        guard lstat(path, &info) == 0 else { return true }
        let modified = Self.seconds(info.modificationTime)
        if Int64(info.st_size) != size || abs(modified - mtime) >= SyncComparison.timeTolerance { return false }
        let age = now - max(modified, Self.seconds(info.statusChangeTime))
        return age < 0 || isSettled(unchangedFor: age, open: false)
    }

    static func seconds(_ time: timespec) -> Double { Double(time.tv_sec) + Double(time.tv_nsec) / 1e9 }
}
