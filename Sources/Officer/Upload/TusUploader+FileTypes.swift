import FileModel
import Foundation
import HTTP
import Journal
import Preview
import Transfer

extension TusUploader {
    /// An uploader that sends each file's MIME type (`filetype`) as tus-js-client and Uppy send the browser's, and
    /// asks `server` what it holds when an upload's last request was in doubt: every upload the Officer layer or
    /// the CLI starts goes through this one.
    package static func describingFiles(
        http: HTTPClient, journal: TransferJournal?, server: OfficerClient?
    ) -> TusUploader {
        describingFiles(http: http, journal: journal, server: server, endpoints: UploadEndpoints())
    }

    /// The same, sharing what `endpoints` learnt (tus or not, body limits) with every uploader of one front door.
    package static func describingFiles(
        http: HTTPClient, journal: TransferJournal?, server: OfficerClient?, endpoints: UploadEndpoints
    ) -> TusUploader {
        TusUploader(
            http: http, journal: journal, fileType: uploadedType(of:), confirmer: server, endpoints: endpoints)
    }

    /// A file's type as a browser names it for an upload: by its extension where the table knows it; libmagic reads
    /// the bytes only of the rest (its database costs some 6 MiB of memory, the upload's own buffers less).
    static func uploadedType(of path: String) -> String? {
        let name = (path as NSString).lastPathComponent
        let ext = (name as NSString).pathExtension.lowercased()
        if !ext.isEmpty, let row = FileTypeTable.byExtension[ext] { return row.mime }
        return try? FileTypeDetector().detect(file: path).mime
    }
}
