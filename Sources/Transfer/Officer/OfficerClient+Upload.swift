import FileModel

extension OfficerClient {
    /// Where a file named `name` goes when uploaded into `folder` (tus, with multipart as the fallback); a name
    /// the one name rule refuses (``FileName``) fails here, before anything is sent.
    public func uploadTarget(name: String, into folder: RemotePath, mtime: Double?, overwrite: Bool) throws(RemotePathError)
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
        return UploadTarget(
            tusEndpoint: url("/api/file-browser/tus"), metadata: metadata, multipartEndpoint: url("/api/file-browser/upload"),
            multipartFields: fields, fileName: name, label: destination, credential: credential)
    }
}
