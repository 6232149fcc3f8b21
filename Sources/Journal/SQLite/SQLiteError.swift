import Foundation

/// An SQLite failure: the database, the statement, and SQLite's own message.
package struct SQLiteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The database file.
    package var path: String
    /// SQLite's (extended) result code; 0 for a failure found by this library (a newer format).
    package var code: Int32
    /// SQLite's message.
    package var message: String
    /// The statement that failed, if any.
    package var sql: String?
    /// The errno of the system call behind the failure (`ENOSPC`, `EROFS`), 0 if none.
    package var systemError: Int32 = 0
    /// The format version found in a file newer than this build reads, with the newest it reads.
    package var newerFormat: FormatVersions?

    /// The format a file carries and the newest one this build reads.
    package struct FormatVersions: Equatable, Sendable {
        /// In the file.
        package var found: Int
        /// The newest this build reads.
        package var supported: Int
    }

    /// Creates an error.
    package init(path: String, code: Int32, message: String, sql: String?, systemError: Int32 = 0) {
        self.path = path
        self.code = code
        self.message = message
        self.sql = sql
        self.systemError = systemError
    }

    /// A file written by a newer build, refused (and left as it is).
    static func newer(path: String, found: Int, supported: Int) -> SQLiteError {
        var error = SQLiteError(path: path, code: 0, message: "format \(found) is newer than \(supported)", sql: nil)
        error.newerFormat = FormatVersions(found: found, supported: supported)
        return error
    }

    /// What went wrong, in the user's terms.
    package enum Problem: Equatable, Sendable {
        /// The disk (or quota) holding the file is full.
        case noSpace
        /// The folder or its filesystem is read-only.
        case readOnly
        /// The folder or the file may not be written by this user.
        case permissionDenied
        /// The file is damaged or not a database.
        case damaged
        /// The file was written by a newer build.
        case newerFormat
        /// Anything else.
        case other
    }

    /// What went wrong, from SQLite's code and the system's errno.
    package var problem: Problem {
        let primary = code & 0xff
        if newerFormat != nil { return .newerFormat }
        if primary == 13 || systemError == ENOSPC || systemError == EDQUOT { return .noSpace }
        if primary == 11 || primary == 26 { return .damaged }
        if primary == 8 || systemError == EROFS { return .readOnly }
        if systemError == EACCES || systemError == EPERM { return .permissionDenied }
        return .other
    }

    /// SQLITE_CORRUPT or SQLITE_NOTADB: the file is damaged or not a database at all.
    package var isCorruption: Bool { problem == .damaged }

    /// The folder holding the file, as messages name it.
    package var folder: String { (path as NSString).deletingLastPathComponent }

    /// A one-line message naming the file or its folder (no SQLite codes: those are for `-v`).
    package var description: String {
        switch problem {
        case .noSpace: "no space left on the device holding \(folder) (writing \((path as NSString).lastPathComponent))"
        case .readOnly: "cannot write to \(folder) (read-only)"
        case .permissionDenied: "cannot write to \(folder) (permission denied)"
        case .damaged: "\(path) is damaged (\(message))"
        case .newerFormat:
            "\(path) was written by a newer officer-files (format \(newerFormat!.found); this build reads up to \(newerFormat!.supported)): upgrade officer-files; the file is left as it is"
        case .other: "\(path): \(message)"
        }
    }
}
