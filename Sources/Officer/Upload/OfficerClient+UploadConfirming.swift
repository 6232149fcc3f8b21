import FileModel
import Foundation
import Transfer

extension OfficerClient: UploadConfirming {
    /// What this server holds under an upload target's name, from the listing of its folder (an endpoint every
    /// Officer server has) and, with `withChecksum`, the SHA-256 the server computes where it offers one. A target
    /// on another server is not this client's to answer.
    package func stored(at target: UploadTarget, withChecksum: Bool) async throws -> StoredFile {
        let items = Dictionary(target.metadata.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        guard target.tusEndpoint.hasPrefix(server), let root = items["root"], let folderPath = items["path"] else {
            return .unknown
        }
        let file = try RemotePath(root: root, path: folderPath).appending(target.fileName)
        guard let entry = try await entryInListing(file), !entry.isDirectory else { return .absent }
        guard withChecksum else { return .file(size: entry.size, sha256: nil) }
        // A server without the checksum endpoint: the size is what it can tell.
        let digest = try await Self.unlessNotFound { () async throws(OfficerError) in try await sha256(file) }
        return .file(size: entry.size, sha256: digest?.sha256)
    }

    /// The size and time of the file a multipart upload's answer names (`{"entries": [{…}]}`).
    package func storedFile(inAnswer body: Data) -> AnsweredFile? {
        (try? JSONDecoder().decode(EntriesResponse.self, from: body))?.entries.first.map {
            AnsweredFile(name: $0.name, size: $0.size, mtime: $0.mtime)
        }
    }

    /// Renames with the seed's `rename`; with `replacing`, what holds the name is removed first (the seed's rename
    /// refuses a taken name), after the new file is safely stored under its own.
    package func rename(storedAs stored: String, to target: UploadTarget, replacing: Bool) async throws {
        let items = Dictionary(target.metadata.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        guard let root = items["root"], let folderPath = items["path"] else {
            throw UploadError.notStored(
                path: stored, destination: target.label, detail: "the server stored it as \(stored)")
        }
        let folder = try RemotePath(root: root, path: folderPath)
        let wanted = try folder.appending(target.fileName)
        if replacing, try await statIfExists(wanted) != nil { _ = try await remove(wanted) }
        try await rename(try folder.appending(stored), to: target.fileName)
    }

    private static func unlessNotFound<T>(_ call: () async throws(OfficerError) -> T) async throws(OfficerError) -> T? {
        do {
            return try await call()
        } catch {
            switch error {
            case .notFound, .notOffered: return nil
            default: throw error
            }
        }
    }
}
