import FileModel
import Foundation
import Platform

/// Which file a path names and which version of it: device, inode, size, and modification and change times to
/// the nanosecond. An edit in place changes the times (the change time cannot be set back), a rename over the
/// path changes the inode: an upload checks it again before its last bytes, so a file that changed while it was
/// sent is never stored as if it were one version.
package struct FileIdentity: Sendable, Equatable {
    package var device: UInt64
    package var inode: UInt64
    package var size: Int64
    package var modified: FileTime
    package var changed: FileTime
    /// Whether it is a regular file (not a folder, device or socket).
    package var isRegularFile: Bool

    /// The identity of the file at `path` now (symbolic links followed, as the upload reads it).
    package init(path: String) throws(UploadError) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .localFile(path: path, message: String(cString: strerror(errno))) }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = FileTime(
            seconds: Int64(info.modificationTime.tv_sec), nanoseconds: Int64(info.modificationTime.tv_nsec))
        changed = FileTime(
            seconds: Int64(info.statusChangeTime.tv_sec), nanoseconds: Int64(info.statusChangeTime.tv_nsec))
        isRegularFile = (info.st_mode & S_IFMT) == S_IFREG
    }

    /// Fails with ``UploadError/sourceChanged(path:)`` unless the file at `path` is still this one, unchanged.
    package func check(_ path: String) throws(UploadError) {
        guard (try? FileIdentity(path: path)) == self else { throw .sourceChanged(path: path) }
    }
}
