import FileModel
import Foundation
import HTTP
import Platform

/// The hidden temp file a download grows in, beside its destination (`.NAME.officer-download`).
///
/// It holds an exclusive `flock` while open, so two processes never fill one file; the lock dies with the
/// process, SIGKILL included. The destination only ever appears through ``commit(force:modificationTime:)``.
final class PartialFile: Sendable {
    let path: String
    let destination: String
    private let file: OpenFile
    private var fd: Int32 { file.descriptor }

    static func tempPath(for destination: String) -> String {
        TemporaryNames.path(beside: URL(fileURLWithPath: destination).path, suffix: ".officer-download")
    }

    init(destination: String) throws(DownloadError) {
        self.destination = destination
        path = Self.tempPath(for: destination)
        // Named by the file asked for: the temp name is this tool's own.
        do { file = try OpenFile(path, O_RDWR | O_CREAT, mode: 0o600) } catch {
            throw .localFile(path: destination, message: error.description)
        }
        guard flock(file.descriptor, LOCK_EX | LOCK_NB) == 0 else { throw .busy(path: destination) }
    }

    /// The temp file for `destination` (made absolute), after checking that the destination is not a folder
    /// and, without `force`, does not exist.
    static func claim(for destination: String, force: Bool) throws(DownloadError) -> PartialFile {
        let destination = URL(fileURLWithPath: destination).standardizedFileURL.path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: destination, isDirectory: &isDirectory) {
            if isDirectory.boolValue { throw .destinationIsDirectory(path: destination) }
            if !force { throw .destinationExists(path: destination) }
        }
        let folder = (destination as NSString).deletingLastPathComponent
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) else {
            throw .noSuchFolder(path: folder + "/")
        }
        guard isDirectory.boolValue else { throw .localFile(path: folder, message: "is a file, not a folder") }
        return try PartialFile(destination: destination)
    }

    var size: Int64 {
        var info = stat()
        return fstat(fd, &info) == 0 ? Int64(info.st_size) : -1
    }

    /// `length` bytes at `offset`, fewer at the end of the file.
    func read(offset: Int64, length: Int) throws(DownloadError) -> Data {
        var data = Data(count: length)
        var done = 0
        while done < length {
            let count = SystemCalls.retryingInterrupts {
                data.withUnsafeMutableBytes {
                    pread(fd, $0.baseAddress! + done, length - done, off_t(offset) + off_t(done))
                }
            }
            if count < 0 { throw failure() }
            if count == 0 { break }
            done += count
        }
        return data.prefix(done)
    }

    /// Empties the file (a fresh start) and gives it `length` bytes when known, so parallel ranges land in place.
    /// Its disk is reserved now, or, where the platform reserves safely beside writes
    /// (``SystemCalls/preallocatesBesideWrites``), left to ``reserveBlocks(_:)``: returns the length still to
    /// reserve then.
    @discardableResult
    func reset(length: Int64?) throws(DownloadError) -> Int64? {
        guard ftruncate(fd, 0) == 0 else { throw failure() }
        guard let length, length > 0 else { return nil }
        if SystemCalls.preallocatesBesideWrites {
            guard ftruncate(fd, off_t(length)) == 0 else { throw failure() }
            return length
        }
        let status = SystemCalls.preallocate(fd, length: length)
        // Filesystems without fallocate (tmpfs on old kernels) still get the right length.
        if status != 0, ftruncate(fd, off_t(length)) != 0 { throw failure() }
        return nil
    }

    /// Reserves disk for the first `length` bytes of a file that has its length already, while ranges write into
    /// it (``SystemCalls/preallocatesBesideWrites``): best effort, as a file system that cannot reserve still takes
    /// the writes, and a full disk is told by the write that meets it.
    func reserveBlocks(_ length: Int64) {
        _ = SystemCalls.preallocate(fd, length: length)
    }

    /// Replaces the contents with everything readable from `source` (a cache entry).
    func fill(from source: Int32) throws(DownloadError) {
        guard ftruncate(fd, 0) == 0, lseek(fd, 0, SEEK_SET) == 0 else { throw failure() }
        do {
            try DescriptorCopy.copy(from: source, to: fd)
        } catch {
            throw .localFile(path: error.reading ? "cached copy of \(destination)" : path, message: error.message)
        }
    }

    /// Flushes written data to stable storage.
    func sync() throws(DownloadError) {
        guard SystemCalls.synchronizeData(fd) else { throw failure() }
    }

    /// Drops the temp file (checksum mismatch: its bytes must not be resumed from).
    func discard() { unlink(path) }

    /// Moves the finished file to its final name: fsync, then rename (with `force`) or link + unlink, which
    /// fails rather than replace a destination that appeared meanwhile; then fsync of the folder.
    func commit(force: Bool, modificationTime: Double?) throws(DownloadError) {
        guard SystemCalls.synchronize(fd) else { throw failure() }
        fchmod(fd, 0o644 & ~Self.umask)
        if let modificationTime {
            let time = FileTime(millisecondsOf: modificationTime)
            let stamp = timespec(tv_sec: time_t(truncatingIfNeeded: time.seconds), tv_nsec: Int(time.nanoseconds))
            var times = [stamp, stamp]
            futimens(fd, &times)
        }
        if force {
            guard rename(path, destination) == 0 else { throw failure(destination) }
        } else {
            guard link(path, destination) == 0 else {
                if errno == EEXIST { throw .destinationExists(path: destination) }
                throw failure(destination)
            }
            unlink(path)
        }
        // The rename is durable once the folder's entry is on the disk too.
        if let directory = try? OpenFile((destination as NSString).deletingLastPathComponent, O_RDONLY | O_DIRECTORY) {
            withExtendedLifetime(directory) { _ = SystemCalls.synchronize(directory.descriptor) }
        }
    }

    private static let umask: mode_t = {
        let current = Foundation.umask(0o022)
        Foundation.umask(current)
        return current
    }()

    private func failure(_ file: String? = nil) -> DownloadError {
        let error = HTTPError.localFile(path: file ?? destination, errno: errno)
        // A full disk is one case whichever layer wrote (HTTPError.noSpace); the rest stays the download's own.
        if case .noSpace = error { return .transfer(error) }
        return .localFile(path: file ?? destination, message: error.detailWithoutPath)
    }
}

extension Comparable {
    fileprivate func clamped(to range: ClosedRange<Self>) -> Self { min(max(self, range.lowerBound), range.upperBound) }
}
