import FileModel
import Foundation
import HTTP
import Preview
import Transfer

extension OfficerFiles {
    /// The same to any remote that takes a stream of unknown length (an Officer server's file; others say they
    /// cannot).
    package func upload(
        stream: some AsyncSequence<Data, any Error> & Sendable, label: String = "-", to destination: Location,
        request: UploadRequest = UploadRequest()
    ) -> TransferOperation<UploadResult> {
        do {
            return try remote(for: destination).upload(stream: stream, label: label, to: destination, request: request)
        } catch {
            return TransferOperation { _ in throw error }
        }
    }
}
