import Foundation
import Platform

/// A state database (the journal, the cache index) opened so that damage never leaves the user stuck: the file
/// is checked (a quick integrity check, an empty file counted as damage since every file this library writes
/// has at least its header) and migrated to the build's format; a damaged one is moved aside or deleted and a
/// fresh one created in its place. Opening holds an exclusive lock on `PATH.lock`, so two processes never both
/// replace a file, and one never mistakes another's brand-new file for an empty one.
package enum SQLiteStateFile {
    /// What to do with a damaged file.
    package enum DamagePolicy: Sendable {
        /// Keep it beside the new one as `NAME.damaged-TIME` (the journal: its records may still be read by hand).
        case moveAside
        /// Delete it (the cache index: its files are found again or dropped).
        case delete
    }

    /// Opens the database at `path` for `schema`; the second value tells what was replaced, if anything.
    package static func open(
        path: String, schema: SQLiteSchema, ifDamaged policy: DamagePolicy
    ) throws(SQLiteError) -> (SQLiteDatabase, DamagedStateFile?) {
        let lock = try OpeningLock(path: path)
        defer { lock.release() }
        if !FileManager.default.fileExists(atPath: path) { try create(path, schema: schema) }
        var reason: String?
        if isEmpty(path) {
            reason = "it was empty (0 bytes)"
        } else {
            do {
                let database = try SQLiteDatabase(path: path)
                if let problem = try database.integrityProblem() {
                    reason = problem
                } else {
                    try database.migrate(to: schema)
                    return (database, nil)
                }
            } catch  where error.isCorruption {
                reason = error.message
            }
        }
        let movedTo = try setAside(path, policy)
        let database = try SQLiteDatabase(path: path)
        try database.migrate(to: schema)
        return (database, DamagedStateFile(path: path, reason: reason ?? "damaged", movedTo: movedTo))
    }

    /// Makes a new file under a name of its own and renames it into place once its format is written: a process
    /// that ends while it is being made (an error exits while a background task opens the journal) leaves no
    /// empty file under the real name, which the next run would call damaged.
    private static func create(_ path: String, schema: SQLiteSchema) throws(SQLiteError) {
        let making = path + ".making-\(getpid())"
        for suffix in ["", "-wal", "-shm"] { unlink(making + suffix) }
        do {
            let database = try SQLiteDatabase(path: making)
            try database.migrate(to: schema)
        }
        // Closed above: its write-ahead log is checkpointed into the file and removed.
        for suffix in ["-wal", "-shm"] { unlink(making + suffix) }
        guard rename(making, path) == 0 else {
            let code = errno
            unlink(making)
            throw SQLiteError(
                path: path, code: 14, message: String(cString: strerror(code)), sql: nil, systemError: code)
        }
    }

    /// A file of 0 bytes with no write-ahead log to replay: truncated, since opening always writes the header.
    private static func isEmpty(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0, info.st_size == 0 else { return false }
        var log = stat()
        return stat(path + "-wal", &log) != 0 || log.st_size == 0
    }

    /// Moves (or deletes) the damaged file and its write-ahead log; where it went.
    private static func setAside(_ path: String, _ policy: DamagePolicy) throws(SQLiteError) -> String? {
        unlink(path + "-shm")
        guard policy == .moveAside else {
            unlink(path)
            unlink(path + "-wal")
            return nil
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss"
        var target = path + ".damaged-" + formatter.string(from: Date())
        var suffix = 1
        while access(target, F_OK) == 0 {
            suffix += 1
            target = path + ".damaged-" + formatter.string(from: Date()) + "-\(suffix)"
        }
        guard rename(path, target) == 0 else {
            throw SQLiteError(
                path: path, code: 0, message: String(cString: strerror(errno)), sql: nil, systemError: errno)
        }
        if rename(path + "-wal", target + "-wal") != 0 { unlink(path + "-wal") }
        return target
    }

    /// `flock` on `PATH.lock` for the time of the opening; released with the process whatever happens.
    private struct OpeningLock {
        let descriptor: Int32

        init(path: String) throws(SQLiteError) {
            descriptor = SystemCalls.open(path + ".lock", O_RDWR | O_CREAT, mode: 0o600)
            guard descriptor >= 0 else {
                throw SQLiteError(
                    path: path, code: 14, message: String(cString: strerror(errno)), sql: nil, systemError: errno)
            }
            _ = SystemCalls.retryingInterrupts { flock(descriptor, LOCK_EX) }
        }

        func release() { close(descriptor) }
    }
}

/// A state file that failed its check at opening and was replaced by a fresh one.
package struct DamagedStateFile: Sendable, Equatable {
    /// The file (now fresh).
    package var path: String
    /// What was wrong, as SQLite (or the size check) put it.
    package var reason: String
    /// Where the damaged file is now; nil when it was deleted.
    package var movedTo: String?
}
