import FileModel
import Foundation
import HTTP
import Platform
import Transfer

/// Walks a local folder depth first with siblings in UTF-8 byte order (``SyncPath``'s order), one folder's
/// names in memory at a time, so it can be merged with the server's listing as both stream.
///
/// Symbolic links are skipped with a warning unless followed (`-L`; a link back to a folder being walked is a
/// loop and is skipped); sockets, FIFOs and devices are skipped with a warning; excluded folders are not entered;
/// the tool's own temp files are never listed. A name that is not UTF-8 is refused, named with its bytes escaped
/// (a source's: a failure) or left alone with a warning (a destination's).
final class LocalTreeWalker {
    private struct Child {
        var name: String
        var sourceName: String?
        var kind: SyncItem.Kind
        var size: Int64
        var mtime: Double
        var identity: (UInt64, UInt64)
    }

    private struct Frame {
        var path: SyncPath
        var absolute: String
        var children: [Child]
        var index = 0
        var identity: (UInt64, UInt64)
    }

    private let root: String
    private let followSymlinks: Bool
    private let filter: SyncFilter
    private let rename: (@Sendable (String) -> String?)?
    private let onProblem: (SyncPath, String, Bool) -> Void
    private var stack: [Frame] = []
    private var started = false
    /// Names of the folder just read that are not UTF-8, to be told before its entries.
    private var refused: [SyncNameError] = []
    /// A root that does not exist is walked as an empty folder (the destination of a pull).
    var missingRootIsEmpty = false
    /// A name that is not UTF-8 is refused (the source: it would not be sent); false: left alone with a warning
    /// (a destination's file that no name from the other side can match).
    var refusesNamesNotUTF8 = true

    /// `rename` gives the name a file is uploaded under (a prepared image) or nil to keep it; `onProblem`
    /// hears skipped entries (`false`: a warning) and unreadable folders (`true`: an error, which blocks deletions).
    init(
        root: String, followSymlinks: Bool, filter: SyncFilter, rename: (@Sendable (String) -> String?)? = nil,
        onProblem: @escaping (SyncPath, String, Bool) -> Void
    ) {
        self.root = root
        self.followSymlinks = followSymlinks
        self.filter = filter
        self.rename = rename
        self.onProblem = onProblem
    }

    /// Names the tool itself writes beside files: a half-finished transfer is never a file to sync.
    static func isOwnTemporary(_ name: String) -> Bool {
        name.hasPrefix(".") && (name.hasSuffix(".officer-download") || name.hasSuffix(".officer-sync"))
            || name.hasPrefix(".officer-upload-")
    }

    /// The next item or refused name, or nil at the end.
    func next() -> Result<SyncItem, SyncNameError>? {
        if !started {
            started = true
            var info = stat()
            let found = stat(root, &info) == 0
            // A pull's destination that does not exist yet is an empty folder (a dry run does not create it).
            if !found, errno == ENOENT, missingRootIsEmpty { return nil }
            guard found, info.st_mode & S_IFMT == S_IFDIR else {
                onProblem(.root, found ? "\(root): not a folder" : "\(root): \(String(cString: strerror(errno)))", true)
                return nil
            }
            stack = [
                Frame(
                    path: .root, absolute: root, children: read(root, at: .root),
                    identity: (UInt64(info.st_dev), UInt64(info.st_ino)))
            ]
        }
        while refused.isEmpty, let top = stack.last {
            guard top.index < top.children.count else {
                stack.removeLast()
                continue
            }
            let child = top.children[top.index]
            stack[stack.count - 1].index += 1
            let path = top.path.appending(child.name)
            let absolute = top.absolute + "/" + (child.sourceName ?? child.name)
            if child.kind == .directory {
                if stack.contains(where: { $0.identity == child.identity }) {
                    onProblem(path, "a link back to a folder above it (a loop): skipped", false)
                    continue
                }
                stack.append(
                    Frame(path: path, absolute: absolute, children: read(absolute, at: path), identity: child.identity))
            }
            return .success(
                SyncItem(
                    path: path, kind: child.kind, size: child.size, mtime: child.mtime, sourceName: child.sourceName))
        }
        return refused.isEmpty ? nil : .failure(refused.removeFirst())
    }

    /// A folder's names as its bytes (readdir): FileManager's are Strings, which turn a name that is not UTF-8
    /// into another (`caf\u{FFFD}.txt`) that lstat then does not find, so the file went unseen and unreported.
    private func names(in folder: String, at path: SyncPath) -> [[UInt8]] {
        guard let directory = opendir(folder) else {
            onProblem(
                path, "cannot read the folder: \(SystemWording.userTerms(String(cString: strerror(errno))))", true)
            return []
        }
        defer { closedir(directory) }
        var names: [[UInt8]] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 {
                    onProblem(
                        path, "cannot read the folder: \(SystemWording.userTerms(String(cString: strerror(errno))))",
                        true)
                }
                return names
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name != Array(".".utf8), name != Array("..".utf8) { names.append(name) }
        }
    }

    private func read(_ folder: String, at path: SyncPath) -> [Child] {
        var children: [Child] = []
        for bytes in names(in: folder, at: path) {
            guard let name = String(validating: bytes, as: UTF8.self) else {
                let shown = path.appending(TerminalText.escaped(bytes: bytes))
                if refusesNamesNotUTF8 {
                    refused.append(SyncNameError(name: shown.description, reason: FileName.notUTF8))
                } else {
                    onProblem(shown, "\(FileName.notUTF8): left alone", false)
                }
                continue
            }
            guard !Self.isOwnTemporary(name) else { continue }
            let absolute = folder + "/" + name
            let childPath = path.appending(name)
            var info = stat()
            guard lstat(absolute, &info) == 0 else { continue }  // removed meanwhile
            if info.st_mode & S_IFMT == S_IFLNK {
                guard followSymlinks else {
                    onProblem(childPath, "a symbolic link: skipped (-L follows links)", false)
                    continue
                }
                guard stat(absolute, &info) == 0 else {
                    onProblem(childPath, "a broken symbolic link: skipped", false)
                    continue
                }
            }
            let type = info.st_mode & S_IFMT
            guard type == S_IFREG || type == S_IFDIR else {
                onProblem(childPath, "not a file or folder (socket, FIFO or device): skipped", false)
                continue
            }
            let isDirectory = type == S_IFDIR
            guard filter.includes(childPath, isDirectory: isDirectory) else { continue }
            var shownName = name
            var sourceName: String?
            if !isDirectory, let rename, let renamed = rename(name) {
                shownName = renamed
                sourceName = name
            }
            let mtime = info.modificationSeconds
            children.append(
                Child(
                    name: shownName, sourceName: sourceName, kind: isDirectory ? .directory : .file,
                    size: isDirectory ? 0 : Int64(info.st_size), mtime: mtime,
                    identity: (UInt64(info.st_dev), UInt64(info.st_ino))))
        }
        children.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        return children
    }
}
