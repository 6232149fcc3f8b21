import Foundation
import HTTP
import Preview
import Transfer

extension TusUploader {
    /// An uploader that sends each file's MIME type as libmagic finds it (`filetype`), as tus-js-client and
    /// Uppy send the browser's, and asks `server` what it holds when an upload's last request was in doubt: every
    /// upload the Officer layer or the CLI starts goes through this one.
    public static func describingFiles(http: HTTPClient = HTTPClient(), journal: TransferJournal?, server: OfficerClient?) -> TusUploader {
        describingFiles(http: http, journal: journal, server: server, endpoints: UploadEndpoints())
    }

    /// The same, sharing what `endpoints` learnt (tus or not, body limits) with every uploader of one front door.
    package static func describingFiles(
        http: HTTPClient, journal: TransferJournal?, server: OfficerClient?, endpoints: UploadEndpoints
    ) -> TusUploader {
        TusUploader(
            http: http, journal: journal, fileType: { path in try? FileTypeDetector().detect(file: path).mime }, confirmer: server,
            endpoints: endpoints)
    }
}
