import FileModel
import Foundation
import HTTP

extension SegmentedDownloader {
    /// Saves the answer to `request` (a `POST` that makes its body, such as the seed's zip of many files) in one
    /// stream: not resumable, since the same request may answer other bytes, but through the same claimed temp
    /// file, length check, `--checksum` and atomic rename as every download, so nothing partial is ever under
    /// the final name.
    package func download(
        answerTo request: HTTPRequest, to destination: String, options: DownloadOptions = DownloadOptions(),
        onEvent: (@Sendable (TransferEvent) -> Void)? = nil
    ) async throws(DownloadError) -> DownloadResult {
        let partial = try PartialFile.claim(for: destination, force: options.force)
        let label = "\(request.method) \(URLRedaction.redacted(request.url))"
        do {
            try partial.reset(length: nil)
            onEvent?(.started(total: nil, partSizes: [], resumedBytes: 0, method: .stream))
            var request = request
            request.sink = .file(path: partial.path, offset: nil)
            request.maxReceiveBytesPerSecond = options.bandwidthLimit
            let response: HTTPResponse
            do {
                response = try await http.send(request, onProgress: { onEvent?(.progress(part: 0, done: $0.written)) })
            } catch let error as HTTPError {
                if case .cancelled = error { throw DownloadError.transfer(.cancelled(request: label)) }
                throw DownloadError.transfer(error)
            }
            guard response.isSuccess else {
                throw DownloadError.server(
                    url: URLRedaction.redacted(request.url), status: response.status, message: response.errorMessage)
            }
            if let announced = response.headers["Content-Length"].flatMap({ Int64($0) }),
                announced != response.bytesWritten || partial.size != announced
            {
                throw DownloadError.lengthMismatch(
                    path: destination, expected: announced, actual: response.bytesWritten)
            }
            let (digest, check) = try await verify(partial: partial, options: options, headers: response.headers)
            try partial.commit(force: options.force, modificationTime: nil)
            var result = DownloadResult(
                path: partial.destination, bytes: response.bytesWritten, resumedBytes: 0,
                fetchedBytes: response.bytesWritten,
                sha256: digest)
            result.checkedBy = check
            return result
        } catch {
            partial.discard()
            switch error {
            case let error as DownloadError: throw error
            default: throw .localFile(path: destination, message: "\(error)")
            }
        }
    }
}
