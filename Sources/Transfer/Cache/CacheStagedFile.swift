import FileModel
import Foundation
import HTTP
import Platform

/// Bytes on their way into the cache: a private temp file (named after the writing process, so a crash
/// leaves a trace that the next open finds) that ``ContentCache/commit(_:key:version:pinned:metadata:)``
/// links into place. Dropped without a commit, it removes itself.
package final class CacheStagedFile: Sendable {
    /// The temp file.
    package let path: String
    /// Its descriptor, open for writing until the commit (a download can write into it directly).
    package var fileDescriptor: Int32 { file.descriptor }
    private let file: OpenFile
    private var isOpen: Bool { file.descriptor >= 0 }
    /// The size once finished, and whether the commit took the file (then it is not removed when dropped).
    private let state = LockedValue((finishedSize: Int64?.none, committed: false))

    /// The commit linked it into place.
    var isCommitted: Bool {
        get { state.withLock { $0.committed } }
        set { state.withLock { $0.committed = newValue } }
    }

    init(temporaryDirectory: String) throws(CacheError) {
        let name = "\(getpid()).\(ContentCache.randomName())"
        path = temporaryDirectory + "/" + name
        do { file = try OpenFile(path, O_WRONLY | O_CREAT | O_EXCL, mode: 0o600) } catch {
            throw .io(path: path, message: "\(error)")
        }
    }

    deinit {
        if !isCommitted { unlink(path) }
    }

    /// Appends bytes.
    package func write(_ data: Data) throws(CacheError) {
        let failure = data.withUnsafeBytes { SystemCalls.writeAll(fileDescriptor, $0) }
        if let failure { throw .io(path: path, message: String(cString: strerror(failure))) }
    }

    /// Appends a local file's bytes.
    package func write(contentsOf source: String) throws(CacheError) {
        let input: OpenFile
        do { input = try OpenFile(source, O_RDONLY) } catch { throw .io(path: source, message: "\(error)") }
        defer { withExtendedLifetime(input) {} }
        do {
            try DescriptorCopy.copy(from: input.descriptor, to: fileDescriptor)
        } catch {
            throw .io(path: error.reading ? source : path, message: error.message)
        }
    }

    /// Flushes the bytes to stable storage and closes the file; returns its size. The commit does this
    /// when it has not been done, so calling it is only needed to keep the flush out of the commit's time.
    @discardableResult
    package func finish() throws(CacheError) -> Int64 {
        if !isOpen, let size = state.withLock({ $0.finishedSize }) { return size }
        guard isOpen else { throw .io(path: path, message: "already committed") }
        var info = stat()
        let synced = SystemCalls.synchronize(fileDescriptor) && fstat(fileDescriptor, &info) == 0
        let failure = errno
        file.close()
        guard synced else { throw .io(path: path, message: String(cString: strerror(failure))) }
        state.withLock { $0.finishedSize = Int64(info.st_size) }
        return Int64(info.st_size)
    }
}
