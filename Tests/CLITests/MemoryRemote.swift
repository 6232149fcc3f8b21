import FileModel
import Foundation
import Officer
import Synchronization
import Transfer

/// A remote held in memory (`NAME:box/some/file`): files and folders in two tables, nothing on a network. It does
/// what the `Remote` protocol asks of any remote and nothing Officer-specific, so a command run over it shows that
/// the command goes through the seam and keeps the library's rules (placement, overwrite, recursion) without a
/// server.
final class MemoryRemote: Remote {
    private struct State {
        var files: [String: Data] = [:]
        var folders: Set<String> = []
    }

    /// What went wrong, as a remote's own errors say it (with a category, as every library error has).
    struct Failure: Error, CategorizedError, CustomStringConvertible {
        var description: String
        var category: ErrorCategory
    }

    private let state = Mutex(State())
    let name: String

    init(name: String) { self.name = name }

    var kind: String { "a test's in-memory remote" }
    var fixedFeatures: RemoteFeatures { [.writable, .serverSideCopy, .serverSideMove] }
    func features() async -> RemoteFeatures { fixedFeatures }

    /// The files held, by `box/path`, for the test to check.
    var files: [String: Data] { state.withLock { $0.files } }

    /// Puts a file there directly (a test's fixture); its folders come with it.
    func seed(_ key: String, _ text: String) {
        state.withLock { state in
            state.files[key] = Data(text.utf8)
            var parent = (key as NSString).deletingLastPathComponent
            while !parent.isEmpty {
                state.folders.insert(parent)
                parent = (parent as NSString).deletingLastPathComponent
            }
        }
    }

    private func key(_ location: Location) throws -> String {
        guard case .object(let path) = location, path.remote == name else {
            throw Failure(description: "\(location): not on \(name)", category: .invalidInput)
        }
        return path.objectKey.isEmpty ? path.bucket : path.bucket + "/" + path.objectKey
    }

    private func location(_ key: String) -> Location {
        let parts = key.split(separator: "/", maxSplits: 1).map(String.init)
        return .object(ObjectStorePath(remote: name, bucket: parts.first ?? "", key: parts.count > 1 ? parts[1] : ""))
    }

    private func entry(_ key: String, in state: State) -> RemoteEntry? {
        let name = (key as NSString).lastPathComponent
        if let data = state.files[key] {
            return RemoteEntry(location: location(key), name: name, kind: .file, size: Int64(data.count))
        }
        if key.isEmpty || state.folders.contains(key) {
            return RemoteEntry(location: location(key), name: name, kind: .directory)
        }
        return nil
    }

    private func missing(_ location: Location) -> Failure {
        Failure(description: "\(location): no such file or folder", category: .notFound)
    }

    func stat(_ location: Location) async throws -> RemoteEntry {
        let key = try key(location)
        guard let entry = state.withLock({ entry(key, in: $0) }) else { throw missing(location) }
        return entry
    }

    func list(_ location: Location) async throws -> RemoteListing {
        let key = try key(location)
        return try state.withLock { state in
            guard let entry = entry(key, in: state) else { throw missing(location) }
            guard entry.isFolder else { return RemoteListing(location: location, entries: [entry]) }
            let prefix = key.isEmpty ? "" : key + "/"
            let names = (Array(state.files.keys) + Array(state.folders)).filter {
                $0.hasPrefix(prefix) && !$0.dropFirst(prefix.count).contains("/")
            }
            return RemoteListing(
                location: location, entries: names.sorted().compactMap { self.entry($0, in: state) })
        }
    }

    func makeFolder(_ location: Location, parents: Bool) async throws -> RemoteEntry {
        let key = try key(location)
        try state.withLock { state in
            let parent = (key as NSString).deletingLastPathComponent
            if state.files[key] != nil || (state.folders.contains(key) && !parents) {
                throw Failure(description: "\(location): exists", category: .conflict)
            }
            if !parent.isEmpty, !state.folders.contains(parent), !parents {
                throw Failure(description: "\(location): no such folder above it", category: .notFound)
            }
            var folder = key
            while !folder.isEmpty {
                state.folders.insert(folder)
                folder = (folder as NSString).deletingLastPathComponent
            }
        }
        return try await stat(location)
    }

    func remove(_ location: Location, recursive: Bool) async throws -> Int {
        let key = try key(location)
        return try state.withLock { state in
            if state.files.removeValue(forKey: key) != nil { return 1 }
            guard state.folders.contains(key) else { throw missing(location) }
            let below =
                state.files.keys.filter { $0.hasPrefix(key + "/") } + state.folders.filter { $0.hasPrefix(key + "/") }
            if !below.isEmpty, !recursive {
                throw Failure(description: "\(location): is a folder with files in it", category: .refused)
            }
            for name in below {
                state.files[name] = nil
                state.folders.remove(name)
            }
            state.folders.remove(key)
            return below.count + 1
        }
    }

    func copy(_ source: Location, to destination: Location, overwrite: Bool, recursive: Bool) async throws
        -> RemoteEntry
    {
        try relocate(source, to: destination, overwrite: overwrite, keepSource: true)
    }

    func move(_ source: Location, to destination: Location, overwrite: Bool) async throws -> RemoteEntry {
        try relocate(source, to: destination, overwrite: overwrite, keepSource: false)
    }

    private func relocate(_ source: Location, to destination: Location, overwrite: Bool, keepSource: Bool) throws
        -> RemoteEntry
    {
        let (from, to) = (try key(source), try key(destination))
        return try state.withLock { state in
            guard let data = state.files[from] else { throw missing(source) }
            if state.files[to] != nil, !overwrite {
                throw Failure(description: "\(destination): exists", category: .conflict)
            }
            state.files[to] = data
            if !keepSource { state.files[from] = nil }
            return entry(to, in: state)!
        }
    }

    func upload(_ local: String, to destination: Location, overwrite: Bool, options: UploadOptions)
        -> TransferOperation<UploadResult>
    {
        TransferOperation { report in
            let key = try self.key(destination)
            let data = try Data(contentsOf: URL(fileURLWithPath: local))
            try self.state.withLock { state in
                let parent = (key as NSString).deletingLastPathComponent
                guard state.folders.contains(parent) else {
                    throw Failure(description: "\(self.location(parent)): no such folder", category: .notFound)
                }
                if state.files[key] != nil, !overwrite {
                    throw Failure(description: "\(destination): exists", category: .conflict)
                }
                state.files[key] = data
            }
            return UploadResult(path: local, bytes: Int64(data.count), method: .objectPut)
        }
    }

    func download(_ location: Location, to local: String, options: DownloadOptions) -> TransferOperation<DownloadResult>
    {
        TransferOperation { report in
            let key = try self.key(location)
            guard let data = self.state.withLock({ $0.files[key] }) else { throw self.missing(location) }
            if FileManager.default.fileExists(atPath: local), !options.force {
                throw Failure(description: "\(local): exists", category: .conflict)
            }
            try data.write(to: URL(fileURLWithPath: local), options: .atomic)
            return DownloadResult(path: local, bytes: Int64(data.count))
        }
    }

    func read(_ location: Location, to fileDescriptor: Int32, outputName: String, bandwidthLimit: Int64?) async throws
        -> Int64
    {
        let key = try key(location)
        guard let data = state.withLock({ $0.files[key] }) else { throw missing(location) }
        try FileHandle(fileDescriptor: fileDescriptor, closeOnDealloc: false).write(contentsOf: data)
        return Int64(data.count)
    }
}
