import FileModel
import Foundation

/// Writes small files whole or not at all: the bytes go to a temp file beside the target, which then takes the
/// final name by a hard link (never over an existing file) or, when replacing is asked for, a rename. A reader
/// never sees half a file, and a file that exists is never lost to a refused write.
package enum AtomicFile {
    /// Writes `data` to `path`; an existing file is a ``LocalFileError/Problem/exists`` unless `replace`.
    package static func write(_ data: Data, to path: String, replace: Bool) throws(LocalFileError) {
        let temp = TemporaryNames.path(beside: path, suffix: ".\(getpid()).officer-tmp")
        guard FileManager.default.createFile(atPath: temp, contents: data) else {
            throw LocalFileError(path: path, problem: .unwritable(String(cString: strerror(errno))))
        }
        defer { unlink(temp) }
        if replace {
            guard rename(temp, path) == 0 else {
                throw LocalFileError(path: path, problem: .unwritable(String(cString: strerror(errno))))
            }
        } else if link(temp, path) != 0 {
            throw LocalFileError(
                path: path, problem: errno == EEXIST ? .exists : .unwritable(String(cString: strerror(errno))))
        }
    }
}
