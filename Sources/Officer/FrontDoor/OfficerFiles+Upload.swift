import FileModel
import Foundation
import HTTP
import Transfer

/// Where and how one upload goes, beyond the file and the destination.
public struct UploadRequest: Sendable {
    /// The destination names a folder (the user wrote a trailing slash): it must be one.
    public var namesFolder = false
    /// Missing folders are created instead of refused (`mkdir -p`).
    public var createMissing = false
    /// An existing file of the same name is replaced; without it, that is a conflict.
    public var overwrite = false
    /// Chunks, parts, checksums, rate, metadata.
    public var options = UploadOptions()

    /// Defaults: into existing folders only, never over a file.
    public init() {}
}

extension OfficerFiles {
    /// Uploads a local file to an Officer destination, placed as `cp` places copies: an existing folder takes it
    /// in under its own name; otherwise it goes under the destination's name into an existing parent
    /// (``UploadRequest/createMissing`` creates what is missing). tus, resumable from the journal; the file's
    /// MIME type (libmagic) and modification time go along; a cancelled upload pauses and the same call
    /// continues it.
    public func upload(
        _ local: String, to destination: RemotePath, request: UploadRequest = UploadRequest()
    ) -> TransferOperation<UploadResult> {
        TransferOperation { report in
            let client = self.client
            let placement = try await client.uploadPlacement(
                destination: destination, namesFolder: request.namesFolder, several: false, createMissing: request.createMissing)
            let target = try self.uploadTarget(for: local, placement: placement, overwrite: request.overwrite)
            return try await self.uploader().upload(file: local, to: target, options: request.options) { report($0) }
        }
    }

    /// The uploader every upload of this front door uses: the journal, and file types named by libmagic.
    public func uploader() -> TusUploader { TusUploader.describingFiles(http: http, journal: journal) }

    /// The tus target of `local` for a placement: into a folder under `name` (default: the file's own name), or
    /// the file name the placement gives; the file's modification time goes along.
    public func uploadTarget(
        for local: String, name: String? = nil, placement: UploadPlacement, overwrite: Bool
    ) throws(RemotePathError) -> UploadTarget {
        let mtime = Self.modificationTime(of: local)
        switch placement {
        case .intoFolder(let folder):
            return try client.uploadTarget(name: name ?? (local as NSString).lastPathComponent, into: folder, mtime: mtime, overwrite: overwrite)
        case .asFile(let file):
            return try client.uploadTarget(name: file.name, into: file.parent, mtime: mtime, overwrite: overwrite)
        }
    }

    /// A local file's modification time in seconds since 1970, to the precision the file system keeps: what an
    /// upload sends as `mtime`.
    public static func modificationTime(of path: String) -> Double? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)?.timeIntervalSince1970
    }
}
