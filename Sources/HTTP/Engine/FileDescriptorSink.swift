import Foundation
import Platform

/// A response body's destination on disk or a pipe: a file the receiver opened and owns (closed when done), or a
/// descriptor it borrows (stdout), written as bytes arrive and never seeked or closed.
final class FileDescriptorSink {
    private let descriptor: Int32
    /// The file it opened, closed with it; nil for a borrowed descriptor.
    private let file: OpenFile?
    private var owned: Bool { file != nil }
    /// The path in messages (`<stdout>` for a borrowed stream).
    let name: String

    /// Opens `path` for writing at `offset`, created if missing; nil truncates it.
    init(path: String, offset: Int64?) throws(HTTPError) {
        let file: OpenFile
        do { file = try OpenFile(path, O_WRONLY | O_CREAT | (offset == nil ? O_TRUNC : 0), mode: 0o644) } catch {
            throw HTTPError.localFile(path: path, errno: error.code)
        }
        self.file = file
        descriptor = file.descriptor
        name = path
        let start = offset ?? 0
        guard lseek(descriptor, off_t(start), SEEK_SET) == off_t(start) else {
            throw HTTPError.localFile(path: path, message: "cannot seek to offset \(start)")
        }
    }

    /// Writes to an open descriptor that stays its owner's.
    init(borrowing descriptor: Int32, name: String) {
        self.descriptor = descriptor
        file = nil
        self.name = name
    }

    /// Writes all of `bytes`; the failure, named by this sink's path, if not.
    func write(_ bytes: UnsafeRawBufferPointer) -> HTTPError? {
        SystemCalls.writeAll(descriptor, bytes).map { HTTPError.localFile(path: name, errno: $0) }
    }

    /// An owned file's bytes reach the disk before the exchange counts as done.
    func flushIfOwned() -> HTTPError? {
        guard owned, !SystemCalls.synchronize(descriptor) else { return nil }
        return HTTPError.localFile(path: name, errno: errno)
    }
}
