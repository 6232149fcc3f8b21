import FileModel
import Foundation
import HTTP
import Platform
import Preview
import Transfer

/// This machine's disk as a ``Remote``, so an operation over locations needs no case of its own for local files.
struct LocalDiskRemote: Remote {
    var kind: String { "this machine" }

    var fixedFeatures: RemoteFeatures { [.writable, .settableTimes, .recursiveListing, .ranges] }

    func features() async -> RemoteFeatures { fixedFeatures }

    func thumbnail(_ location: Location, size: Int) async throws -> Thumbnail {
        Thumbnail(image: try await Thumbnail.ofLocalFile(try path(location), size: size), origin: .local)
    }

    func actionTarget(_ location: Location) throws -> ActionTarget { .local(try path(location)) }

    func path(_ location: Location) throws -> String {
        guard case .local(let path) = location else {
            throw FrontDoorRefusal.invalidValue("\(location): not a local path")
        }
        return path
    }

    static func entry(at path: String, name: String? = nil) throws -> RemoteEntry {
        guard let info = linkStatus(path) else {
            throw HTTPError.localFile(path: path, message: String(cString: strerror(errno)))
        }
        let type = info.st_mode & S_IFMT
        let kind: RemoteEntry.Kind = type == S_IFDIR ? .directory : type == S_IFLNK ? .symlink : .file
        let mtime = info.modificationSeconds
        return RemoteEntry(
            location: .local(path), name: name ?? (path as NSString).lastPathComponent, kind: kind,
            size: kind == .file ? Int64(info.st_size) : 0,
            mtime: mtime, mode: Int(info.st_mode & 0o7777))
    }

    func stat(_ location: Location) async throws -> RemoteEntry { try Self.entry(at: try path(location)) }

    func list(_ location: Location) async throws -> RemoteListing {
        let folder = try path(location)
        let top = try Self.entry(at: folder)
        guard top.isFolder else { return RemoteListing(location: location, entries: [top]) }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted {
                Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8))
            }
        } catch {
            throw HTTPError.localFile(path: folder, message: "cannot read the folder")
        }
        return RemoteListing(
            location: location,
            entries: try names.map { try Self.entry(at: (folder as NSString).appendingPathComponent($0)) })
    }

    func makeFolder(_ location: Location, parents: Bool) async throws -> RemoteEntry {
        let folder = try path(location)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: parents)
        } catch {
            throw HTTPError.localFile(
                path: folder,
                message: parents ? "cannot be made" : "cannot be made (does its parent exist? -p makes it)")
        }
        return try Self.entry(at: folder)
    }

    func remove(_ location: Location, recursive: Bool) async throws -> Int {
        let target = try path(location)
        let entry = try Self.entry(at: target)
        if entry.isFolder, !recursive { throw FrontDoorRefusal.needsRecursive(target) }
        do {
            try FileManager.default.removeItem(atPath: target)
        } catch {
            throw HTTPError.localFile(path: target, message: "cannot be removed")
        }
        return 1
    }

    func facts(of location: Location) async throws -> FileFacts { try FileFacts.local(try path(location)) }

    func archiveBytes(_ location: Location) async throws -> ArchiveBytes {
        let local = try path(location)
        try LocalFiles.requireLocalFile(local)
        return .local(local)
    }
}

/// `lstat(2)` of a path (outside the types, whose `stat` methods hide the C struct's name).
private func linkStatus(_ path: String) -> stat? {
    var info = stat()
    return lstat(path, &info) == 0 ? info : nil
}
