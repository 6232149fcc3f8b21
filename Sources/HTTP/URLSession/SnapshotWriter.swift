import Foundation
import Platform

/// Writes a snapshot body file: bytes, ranges of other files, and a pipe's stream, in order.
final class SnapshotWriter {
    private let url: URL
    private let file: OpenFile
    private var descriptor: Int32 { file.descriptor }
    /// Bytes written so far.
    private(set) var written: Int64 = 0

    init(url: URL) throws(HTTPError) {
        self.url = url
        do { file = try OpenFile(url.path, O_WRONLY | O_CREAT | O_EXCL, mode: 0o600) } catch {
            throw HTTPError.localFile(path: url.deletingLastPathComponent().path, errno: error.code)
        }
    }

    /// Drops the snapshot (a failed or refused body).
    func discard() { try? FileManager.default.removeItem(at: url) }

    func append(_ data: Data) throws(HTTPError) {
        let failed = data.withUnsafeBytes { SystemCalls.writeAll(descriptor, $0) }
        if let failed { throw HTTPError.localFile(path: url.deletingLastPathComponent().path, errno: failed) }
        written += Int64(data.count)
    }

    /// Copies `length` bytes of `path` from `offset` (nil: to its end); a file that ends sooner fails.
    func append(fileAt path: String, offset: Int64, length: Int64?) throws(HTTPError) {
        let opened: OpenFile
        do { opened = try OpenFile(path, O_RDONLY) } catch { throw HTTPError.localFile(path: path, errno: error.code) }
        let source = opened.descriptor
        defer { withExtendedLifetime(opened) {} }
        guard lseek(source, off_t(offset), SEEK_SET) == off_t(offset) else {
            throw HTTPError.localFile(path: path, message: "cannot seek to offset \(offset)")
        }
        var remaining = length ?? Int64.max
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while remaining > 0 {
            let wanted = Int(min(Int64(buffer.count), remaining))
            let count = SystemCalls.retryingInterrupts {
                buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, wanted) }
            }
            if count < 0 { throw HTTPError.localFile(path: path, errno: errno) }
            if count == 0 {
                if length == nil { return }
                throw HTTPError.localFile(path: path, message: "file shrank while being sent")
            }
            let failed = buffer.withUnsafeBytes {
                SystemCalls.writeAll(descriptor, UnsafeRawBufferPointer(rebasing: $0[0..<count]))
            }
            if let failed { throw HTTPError.localFile(path: url.deletingLastPathComponent().path, errno: failed) }
            written += Int64(count)
            remaining -= Int64(count)
        }
    }

    /// Drains a pipe's stream to its end; a producer's failure fails the body under the stream's `name`.
    func append(stream: BodyStream, name: String) async throws(HTTPError) {
        var buffer = Data(count: 256 << 10)
        while true {
            let take = buffer.withUnsafeMutableBytes { stream.take(into: $0) }
            switch take {
            case .bytes(let count): try append(buffer.prefix(count))
            case .end: return
            case .failed(let reason): throw HTTPError.localFile(path: name, message: reason)
            case .wait:
                do { try await stream.waitForBytes() } catch { throw HTTPError.cancelled(request: name) }
            }
        }
    }
}
