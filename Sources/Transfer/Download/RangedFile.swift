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
package final class RangedFile: @unchecked Sendable {
    /// The URL read.
    package let url: String
    /// The file's length.
    package let size: Int64
    /// The validator every range is asked with, when the server gave a strong one.
    package let etag: String?
    private let http: HTTPClient
    private let credential: BearerCredential?
    private let lock = NSLock()
    private var blocks: [(start: Int64, data: Data)] = []
    private var nextSequential: Int64 = -1
    private var blockSize = RangedFile.smallestBlock
    private var sequentialRun = 0
    private var fetched: Int64 = 0
    private var requests = 0
    private var cancelled = false

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
    package var traffic: (bytes: Int64, requests: Int) { lock.withLock { (fetched, requests) } }

    /// Makes every later read fail with `CancellationError` (the task that started the reader was cancelled).
    package func cancel() { lock.withLock { cancelled = true } }

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
        let plan: (start: Int64, length: Int) = try lock.withLock {
            if cancelled { throw CancellationError() }
            if let index = blocks.firstIndex(where: { offset >= $0.start && offset < $0.start + Int64($0.data.count) })
            {
                let block = blocks.remove(at: index)
                blocks.append(block)
                return (block.start, -1)
            }
            // Grown only from the third block of a run: a header that ends just past the first block (a JPEG's
            // EXIF and tables) then costs one more small block, not a large one.
            sequentialRun = offset == nextSequential ? sequentialRun + 1 : 0
            blockSize = sequentialRun >= 2 ? min(blockSize * 2, Self.largestBlock) : Self.smallestBlock
            if wanting >= blockSize {
                return (offset, Int(min(Int64(min(wanting, Self.largestRead)), size - offset)))
            }
            // Aligned, so a reader going backwards a little (a zip's end records) finds its bytes in one block.
            let start = offset - offset % Int64(Self.smallestBlock)
            let length = Int(min(Int64(blockSize), size - start))
            return (start, length)
        }
        if plan.length < 0 { return lock.withLock { blocks.last! } }
        let data = try fetch(plan.start, plan.length)
        return lock.withLock {
            fetched += Int64(data.count)
            requests += 1
            nextSequential = plan.start + Int64(data.count)
            blocks.append((plan.start, data))
            if blocks.count > Self.keptBlocks { blocks.removeFirst() }
            return (plan.start, data)
        }
    }

    private func fetch(_ start: Int64, _ length: Int) throws -> Data {
        var request = HTTPRequest(url: url, sink: .memory(limit: length), credential: credential)
        request.redirects = .anyOrigin
        request.headers.add("Range", "bytes=\(start)-\(start + Int64(length) - 1)")
        if let etag { request.headers.add("If-Match", etag) }
        let box = FetchResult()
        let done = DispatchSemaphore(value: 0)
        let http = http
        Task.detached {
            do {
                box.set(.success(try await http.send(request)))
            } catch {
                box.set(.failure(error))
            }
            done.signal()
        }
        done.wait()
        let response = try box.get()
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

/// The result a detached request hands back to the blocked reader.
private final class FetchResult: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<HTTPResponse, any Error> = .failure(CancellationError())

    func set(_ value: Result<HTTPResponse, any Error>) { lock.withLock { result = value } }
    func get() throws -> HTTPResponse { try lock.withLock { result }.get() }
}
