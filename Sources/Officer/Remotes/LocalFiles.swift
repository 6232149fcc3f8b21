import FileModel
import Foundation

/// The rules every operation on a file or folder of this machine shares, named once.
package enum LocalFiles {
    /// A local path that must be an existing file: ``LocalFileError`` naming it otherwise.
    package static func requireLocalFile(_ local: String) throws(LocalFileError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: local, isDirectory: &isDirectory) else {
            throw LocalFileError(path: local, problem: .missing)
        }
        if isDirectory.boolValue { throw LocalFileError(path: local, problem: .isAFolder) }
    }

    /// The folder rule every operation on a local folder shares: it exists and is a folder.
    /// The one rule for a folder the user names for output (`thumb -o`, `image prepare`, several targets of an
    /// action): created, with its parents, when missing; a file there is refused.
    package static func makeOutputFolder(_ local: String) throws(LocalFileError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: local, isDirectory: &isDirectory) {
            if !isDirectory.boolValue { throw LocalFileError(path: local, problem: .notAFolder) }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: local, withIntermediateDirectories: true)
        } catch {
            throw LocalFileError(path: local, problem: .unwritable(String(cString: strerror(errno))))
        }
    }

    /// Refuses a local path that is not an existing folder (what an extraction writes into).
    package static func requireLocalFolder(_ local: String) throws(LocalFileError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: local, isDirectory: &isDirectory) else {
            throw LocalFileError(path: local, problem: .missing)
        }
        if !isDirectory.boolValue { throw LocalFileError(path: local, problem: .notAFolder) }
    }

    /// A local file's modification time in seconds since 1970, to the precision the file system keeps: what an
    /// upload sends as `mtime`.
    package static func modificationTime(of path: String) -> Double? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)?.timeIntervalSince1970
    }
}
