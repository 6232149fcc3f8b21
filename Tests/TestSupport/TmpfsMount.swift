import Foundation

/// A tmpfs of a given size mounted over a fresh temporary folder (tests run as root), for a disk that fills up or
/// keeps file times other file systems clamp. Unmounted when released, or earlier with ``unmount()``.
public final class TmpfsMount: @unchecked Sendable {
    /// The folder the tmpfs is mounted on (owned: removed after the unmount).
    public let directory: TemporaryDirectory
    private let lock = NSLock()
    private var mounted = false

    /// Mounts a tmpfs of `size` (as mount takes it: `2m`, `50m`) on a new folder.
    public init(size: String, prefix: String = "officer-tmpfs") throws {
        directory = TemporaryDirectory(prefix: prefix)
        let result = try ProcessRunner.run(
            "/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", directory.path])
        guard result.status == 0 else {
            throw NSError(
                domain: "TmpfsMount", code: Int(result.status), userInfo: [NSLocalizedDescriptionKey: result.stderr])
        }
        mounted = true
    }

    /// Its path.
    public var path: String { directory.path }

    /// Grows (or shrinks) the mounted tmpfs.
    public func resize(_ size: String) throws {
        _ = try ProcessRunner.run("/bin/mount", ["-o", "remount,size=\(size)", directory.path])
    }

    /// Unmounts it (lazily, so a server still holding a file there does not keep it mounted).
    public func unmount() {
        let wasMounted = lock.withLock {
            defer { mounted = false }
            return mounted
        }
        if wasMounted { _ = try? ProcessRunner.run("/bin/umount", ["-l", directory.path]) }
    }

    deinit { unmount() }
}
