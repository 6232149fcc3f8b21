import Foundation
import HTTP
import Preview
import Transfer

extension TusUploader {
    /// An uploader that sends each file's MIME type as libmagic finds it (`filetype`), as tus-js-client and
    /// Uppy send the browser's: every upload the Officer layer or the CLI starts goes through this one.
    public static func describingFiles(http: HTTPClient = HTTPClient(), journal: TransferJournal?) -> TusUploader {
        TusUploader(http: http, journal: journal, fileType: { path in try? FileTypeDetector().detect(file: path).mime })
    }
}
