import FileModel
import HTTP
import Transfer

extension OfficerClient {
    /// Where a file named `name` goes when uploaded into `folder` (tus, with multipart as the fallback); a name
    /// the one name rule refuses (``FileName``) fails here, before anything is sent.
    package func uploadTarget(name: String, into folder: RemotePath, mtime: Double?, overwrite: Bool)
        throws(RemotePathError)
        -> UploadTarget
    {
        let destination = try folder.appending(name).description
        var metadata = [
            UploadTarget.MetadataItem("filename", name), UploadTarget.MetadataItem("path", folder.path),
            UploadTarget.MetadataItem("root", folder.root),
        ]
        var fields = [
            UploadTarget.MetadataItem("root", folder.root), UploadTarget.MetadataItem("path", folder.path),
            UploadTarget.MetadataItem("overwrite", overwrite ? "true" : "false"),
        ]
        if let mtime {
            metadata.append(UploadTarget.MetadataItem("mtime", String(mtime)))
            fields.append(UploadTarget.MetadataItem("mtime", String(mtime)))
        }
        if overwrite { metadata.append(UploadTarget.MetadataItem("overwrite", "true")) }
        var target = UploadTarget(
            tusEndpoint: url("/api/file-browser/tus"), metadata: metadata,
            multipartEndpoint: url("/api/file-browser/upload"),
            multipartFields: fields, fileName: name, label: destination, credential: credential)
        target.resumableEndpoint = url("/api/file-browser/resumable")
        return target
    }
}

/// Where uploads to a destination go.
package enum UploadPlacement: Sendable, Equatable {
    /// Into this existing folder, each file under its own name.
    case intoFolder(RemotePath)
    /// As this file (a single upload to a name).
    case asFile(RemotePath)
}

extension OfficerClient {
    /// Decides where uploads to `destination` go, as `cp` does: an existing folder takes them in; a name written
    /// as a folder (`namesFolder`: a trailing slash) or given several files must be an existing folder; a single
    /// file to a name that does not exist goes under that name, into a parent that must exist. With
    /// `createMissing`, missing folders (the destination folder, or the parent) are created instead of refused.
    /// A file where a folder is needed is a conflict; a missing folder is not found.
    package func uploadPlacement(
        destination: RemotePath, namesFolder: Bool, several: Bool, createMissing: Bool
    ) async throws(OfficerError) -> UploadPlacement {
        let wantsFolder = namesFolder || several || destination.isRoot
        // A single file's parent is asked beside its name (what is needed when the name is free), not after it.
        async let parentAnswer =
            wantsFolder
            ? nil : Result.awaiting { () async throws(OfficerError) in try await folderExists(destination.parent) }
        // Awaited on every way out, never cancelled (a cancelled request costs its connection).
        let existing: FileEntry?
        let parentExists: Result<Bool, OfficerError>?
        do {
            existing = try await statIfExists(destination)
            parentExists = await parentAnswer
        } catch {
            _ = await parentAnswer
            throw error
        }
        if let existing {
            if existing.isDirectory { return .intoFolder(destination) }
            guard !wantsFolder else {
                throw .conflict(request: "upload", message: "\(destination): is a file, not a folder")
            }
            return .asFile(destination)
        }
        if wantsFolder {
            guard createMissing else { throw .notFound(request: "upload", message: "\(destination): no such folder") }
            try await makeDirectory(destination, parents: true)
            return .intoFolder(destination)
        }
        let parent = destination.parent
        if try parentExists?.get() == false {
            guard createMissing else { throw .notFound(request: "upload", message: "\(parent): no such folder") }
            try await makeDirectory(parent, parents: true)
        }
        return .asFile(destination)
    }
}
