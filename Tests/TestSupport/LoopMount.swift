import Foundation

/// A small file system of another kind (`ext2`: no `fallocate`) made in an image file and mounted over a fresh
/// temporary folder through a loop device (tests run as root). Unmounted and removed when released.
public final class LoopMount {
    /// The folder it is mounted on.
    public let directory: TemporaryDirectory
    private let image: String

    /// Makes a `type` file system of `mebibytes` and mounts it.
    public init(type: String, mebibytes: Int, prefix: String = "officer-loop") throws {
        directory = TemporaryDirectory(prefix: prefix)
        image = directory.path + ".img"
        try Self.check(ProcessRunner.run("/usr/bin/truncate", ["-s", "\(mebibytes)M", image]))
        try Self.check(ProcessRunner.run("/sbin/mkfs.\(type)", ["-q", image]))
        try Self.check(ProcessRunner.run("/bin/mount", ["-o", "loop", image, directory.path]))
    }

    /// Its path.
    public var path: String { directory.path }

    private static func check(_ result: ProcessResult) throws {
        guard result.status == 0 else {
            throw NSError(
                domain: "LoopMount", code: Int(result.status), userInfo: [NSLocalizedDescriptionKey: result.stderr])
        }
    }

    deinit {
        _ = try? ProcessRunner.run("/bin/umount", [directory.path])
        unlink(image)
    }
}
