import Foundation
import Platform

/// A request body as the URLSession engine sends it: nothing, or a file — every body, bytes in memory too (a JSON
/// request, a tus chunk, a stream's piece, an S3 `put(data:)`), since a background session sends only files
/// (where FoundationNetworking runs, a small body is held in memory instead: ``Source/memory(_:)``). A
/// file range or a multipart body is written to a snapshot file first, and the request's
/// ``HTTPRequest/beforeLastBodyBytes`` check runs once the snapshot holds every byte: what the server then
/// receives is exactly a copy that was checked, so it never receives the end of a file that changed while it was
/// read.
struct SnapshotBody {
    enum Source {
        case none
        case file(URL, length: Int64)
        /// The snapshot held in memory (FoundationNetworking, bodies up to the engine's limit: no file written and
        /// read back for each tus chunk).
        case memory(Data)
    }

    let source: Source
    let contentType: String?
    /// A snapshot this body made, removed after the request.
    private let snapshot: URL?

    /// Bytes the body holds, when known.
    var length: Int64? {
        switch source {
        case .none: 0
        case .file(_, let length): length
        case .memory(let data): Int64(data.count)
        }
    }

    /// The snapshot of `request`'s body: in a file in `folder`, or, for bytes or a file range of at most
    /// `memoryLimit` bytes, in memory (nil: always a file, as a background session's daemon needs).
    init(request: HTTPRequest, folder: URL, memoryLimit: Int64? = nil) async throws(HTTPError) {
        switch request.body {
        case .empty:
            (source, contentType, snapshot) = (.none, nil, nil)
        case .data(let data, let type) where Int64(data.count) <= memoryLimit ?? -1:
            (source, contentType, snapshot) = (.memory(data), type, nil)
        case .file(let path, let offset, let length, let type) where length <= memoryLimit ?? -1:
            let bytes = try Self.read(path, offset: offset, length: length)
            try Self.check(request, path: path)
            (source, contentType, snapshot) = (.memory(bytes), type, nil)
        case .data(let data, let type):
            let file = Self.snapshotURL(in: folder)
            let writer = try SnapshotWriter(url: file)
            do {
                try writer.append(data)
            } catch {
                writer.discard()
                throw error
            }
            (source, contentType, snapshot) = (.file(file, length: Int64(data.count)), type, file)
        case .file(let path, let offset, let length, let type):
            let file = Self.snapshotURL(in: folder)
            let writer = try SnapshotWriter(url: file)
            do {
                try writer.append(fileAt: path, offset: offset, length: length)
                try Self.check(request, path: path)
            } catch {
                writer.discard()
                throw error
            }
            (source, contentType, snapshot) = (.file(file, length: length), type, file)
        case .multipart(let parts):
            let file = Self.snapshotURL(in: folder)
            let writer = try SnapshotWriter(url: file)
            let boundary = "officer-files-" + UUID().uuidString
            do {
                var lastPath = ""
                for part in parts {
                    try writer.append(Data(Self.partHead(part, boundary: boundary).utf8))
                    switch part {
                    case .field(_, let value): try writer.append(Data(value.utf8))
                    case .file(_, let path, _, _):
                        try writer.append(fileAt: path, offset: 0, length: nil)
                        lastPath = path
                    case .stream(_, let stream, let filename, _):
                        try await writer.append(stream: stream, name: filename)
                    }
                    try writer.append(Data("\r\n".utf8))
                }
                try writer.append(Data("--\(boundary)--\r\n".utf8))
                if !lastPath.isEmpty { try Self.check(request, path: lastPath) }
            } catch {
                writer.discard()
                throw error
            }
            (source, contentType, snapshot) = (
                .file(file, length: writer.written), "multipart/form-data; boundary=\(boundary)", file
            )
        }
    }

    /// Removes the snapshot, if one was made.
    func remove() {
        if let snapshot { try? FileManager.default.removeItem(at: snapshot) }
    }

    /// `length` bytes of `path` from `offset`, read whole (a file that ends sooner fails as one that shrank).
    private static func read(_ path: String, offset: Int64, length: Int64) throws(HTTPError) -> Data {
        let opened: OpenFile
        do { opened = try OpenFile(path, O_RDONLY) } catch { throw HTTPError.localFile(path: path, errno: error.code) }
        guard lseek(opened.descriptor, off_t(offset), SEEK_SET) == off_t(offset) else {
            throw HTTPError.localFile(path: path, message: "cannot seek to offset \(offset)")
        }
        guard length > 0 else { return Data() }
        // Read into memory of its own, not a zeroed `Data(count:)`: zeroing 4 MiB per tus chunk, to be overwritten
        // at once, was a fortieth of an upload's time.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(length), alignment: 16)
        switch SystemCalls.readFully(opened.descriptor, into: buffer) {
        case .failure(let error):
            buffer.deallocate()
            throw HTTPError.localFile(path: path, errno: error.code)
        case .success(let count) where count < buffer.count:
            buffer.deallocate()
            throw HTTPError.localFile(path: path, message: "file shrank while being sent")
        case .success:
            return Data(
                bytesNoCopy: buffer.baseAddress!, count: buffer.count,
                deallocator: .custom { bytes, _ in bytes.deallocate() })
        }
    }

    private static func snapshotURL(in folder: URL) -> URL {
        folder.appendingPathComponent(".officer-files-body-\(UUID().uuidString)")
    }

    private static func check(_ request: HTTPRequest, path: String) throws(HTTPError) {
        if let reason = request.beforeLastBodyBytes?() { throw HTTPError.localFile(path: path, message: reason) }
    }

    /// A part's boundary line and headers, as browsers write them: a quote or line break in a name is
    /// percent-encoded, so no name can end its header early.
    static func partHead(_ part: HTTPRequest.MultipartPart, boundary: String) -> String {
        func quoted(_ value: String) -> String {
            value.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "%0D")
                .replacingOccurrences(of: "\n", with: "%0A")
        }
        var head = "--\(boundary)\r\n"
        switch part {
        case .field(let name, _):
            head += "Content-Disposition: form-data; name=\"\(quoted(name))\"\r\n"
        case .file(let name, _, let filename, let type), .stream(let name, _, let filename, let type):
            head += "Content-Disposition: form-data; name=\"\(quoted(name))\"; filename=\"\(quoted(filename))\"\r\n"
            head += "Content-Type: \(type ?? "application/octet-stream")\r\n"
        }
        return head + "\r\n"
    }
}
