import FileModel
import Foundation
import HTTP

/// A remote file read at any offset through HTTP Range requests, with a small cache of blocks, for readers
/// that look at a few parts of a large file (a zip's central directory, a PDF's trailer, an image's header).
/// A run of reads that follow each other fetches larger and larger blocks (64 KiB up to 4 MiB), so a reader streaming
/// from the start makes few requests; a jump starts small again. Every range is asked with `If-Match` on the
/// ETag the file had when it was opened: a file that changes halfway fails the read instead of mixing two
/// versions.
///
/// `read(at:into:)` blocks its thread while the request runs: call it from a thread of its own (a libarchive
/// or libvips worker), never from Swift concurrency's shared pool.
package final class RangedFile: Sendable {
    /// The URL read.
    package let url: String
    /// The file's length.
    package let size: Int64
    /// The validator every range is asked with, when the server gave a strong one.
    package let etag: String?
    private let http: HTTPClient
    private let credential: BearerCredential?
    private let state = LockedValue(State())

    /// What the reads share: the blocks kept, the run of sequential reads, the traffic, the request in flight.
    private struct State {
        var blocks: [(start: Int64, data: Data)] = []
        var nextSequential: Int64 = -1
        var blockSize = RangedFile.smallestBlock
        var sequentialRun = 0
        var fetched: Int64 = 0
        var requests = 0
        var cancelled = false
        /// The request a read waits for, cancelled with the reader.
        var inFlight: Task<Void, Never>?
    }

    /// The first block asked for after a jump.
    package static let smallestBlock = 64 << 10
    /// The largest block a run of sequential reads grows to.
    package static let largestBlock = 4 << 20
    /// The most one read asks for at once.
    static let largestRead = 64 << 20
    /// Blocks kept; the least recently used goes first.
    static let keptBlocks = 16

    /// A file of `size` bytes at `url` (`etag` from the listing or a HEAD; the credential, if any, bound to its
    /// origin as every request's is).
    package init(http: HTTPClient, url: String, credential: BearerCredential?, size: Int64, etag: String?) {
        self.http = http
        self.url = url
        self.credential = credential
        self.size = size
        self.etag = etag
    }

    /// Bytes fetched so far, and in how many requests.
    package var traffic: (bytes: Int64, requests: Int) { state.withLock { ($0.fetched, $0.requests) } }

    /// Makes every later read fail with `CancellationError` (the task that started the reader was cancelled), and
    /// the request a read is waiting for.
    package func cancel() {
        state.withLock { state in
            state.cancelled = true
            return state.inFlight
        }?.cancel()
    }

    /// Copies up to `buffer.count` bytes from `offset` into `buffer`; 0 at the end of the file.
    package func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard offset < size, buffer.count > 0 else { return 0 }
        let block = try self.block(containing: offset, wanting: buffer.count)
        let start = Int(offset - block.start)
        let count = min(buffer.count, block.data.count - start)
        block.data.withUnsafeBytes { bytes in
            buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + start, byteCount: count)
        }
        return count
    }

    /// The block holding `offset`, fetched when missing: at least `wanting` bytes from there in one request (a
    /// zip's whole central directory), else the block size the run of reads has reached.
    private func block(containing offset: Int64, wanting: Int) throws -> (start: Int64, data: Data) {
        let plan: (start: Int64, length: Int) = try state.withLock { state in
            if state.cancelled { throw CancellationError() }
            if let index = state.blocks.firstIndex(where: {
                offset >= $0.start && offset < $0.start + Int64($0.data.count)
            }) {
                let block = state.blocks.remove(at: index)
                state.blocks.append(block)
                return (block.start, -1)
            }
            // Grown only from the third block of a run: a header that ends just past the first block (a JPEG's
            // EXIF and tables) then costs one more small block, not a large one.
            state.sequentialRun = offset == state.nextSequential ? state.sequentialRun + 1 : 0
            state.blockSize =
                state.sequentialRun >= 2 ? min(state.blockSize * 2, Self.largestBlock) : Self.smallestBlock
            if wanting >= state.blockSize {
                return (offset, Int(min(Int64(min(wanting, Self.largestRead)), size - offset)))
            }
            // Aligned, so a reader going backwards a little (a zip's end records) finds its bytes in one block.
            let start = offset - offset % Int64(Self.smallestBlock)
            let length = Int(min(Int64(state.blockSize), size - start))
            return (start, length)
        }
        if plan.length < 0 { return state.withLock { $0.blocks.last! } }
        let data = try fetch(plan.start, plan.length)
        return state.withLock { state in
            state.fetched += Int64(data.count)
            state.requests += 1
            state.nextSequential = plan.start + Int64(data.count)
            state.blocks.append((plan.start, data))
            if state.blocks.count > Self.keptBlocks { state.blocks.removeFirst() }
            return (plan.start, data)
        }
    }

    /// Sends `request` and blocks this thread until it is answered: the reader's own thread, never the shared pool.
    /// The request is a task of this reader's, cancelled by ``cancel()``.
    private func send(_ request: HTTPRequest) throws -> HTTPResponse {
        let result = LockedValue<Result<HTTPResponse, any Error>>(.failure(CancellationError()))
        let done = DispatchSemaphore(value: 0)
        let http = http
        let task = Task.detached {
            let outcome: Result<HTTPResponse, any Error>
            do { outcome = .success(try await http.send(request)) } catch { outcome = .failure(error) }
            result.withLock { $0 = outcome }
            done.signal()
        }
        let cancelled = state.withLock { state in
            state.inFlight = task
            return state.cancelled
        }
        if cancelled { task.cancel() }
        done.wait()
        state.withLock { $0.inFlight = nil }
        return try result.current.get()
    }

    private func fetch(_ start: Int64, _ length: Int) throws -> Data {
        var request = HTTPRequest(url: url, sink: .memory(limit: length), credential: credential)
        request.redirects = .anyOrigin
        request.headers.add("Range", "bytes=\(start)-\(start + Int64(length) - 1)")
        if let etag { request.headers.add("If-Match", etag) }
        let response = try send(request)
        let asked = "bytes \(start)-\(start + Int64(length) - 1)"
        switch response.status {
        case 206:
            guard let range = response.headers.contentRange?.range, range.lowerBound == start,
                response.body.count == length,
                range.count == length
            else {
                throw DownloadError.unexpectedAnswer(
                    url: url,
                    reason: "asked for \(asked), got \(response.headers["Content-Range"] ?? "no Content-Range")")
            }
            return response.body
        case 200 where start == 0 && Int64(length) == size && response.body.count == length:
            return response.body
        case 412:
            throw DownloadError.unstable(url: url)
        default:
            throw DownloadError.server(url: url, status: response.status, message: response.errorMessage)
        }
    }
}
