import FileModel
import Foundation
import HTTP
import Platform
import Transfer

/// The local half of a pull: folders created, files received through a temp file and checked against the
/// plan before they replace anything, deletions — never outside the local root.
enum LocalSide {
    static func makeDirectory(_ path: SyncPath, in root: String) throws {
        try checkParents(of: path, in: root)
        let absolute = root + "/" + path.description
        if mkdir(absolute, 0o755) != 0 {
            let failure = errno
            var info = stat()
            guard failure == EEXIST, lstat(absolute, &info) == 0 else {
                throw HTTPError.localFile(path: absolute, errno: failure)
            }
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw HTTPError.localFile(
                    path: absolute,
                    message:
                        "exists and is not a real folder (a symbolic link or a file): nothing is written through it")
            }
        }
    }

    /// Every folder between the root and `path` must be a real folder: a symbolic link there could lead outside.
    static func checkParents(of path: SyncPath, in root: String) throws {
        var current = root
        for component in path.components.dropLast() {
            current += "/" + component
            var info = stat()
            guard lstat(current, &info) == 0 else {
                throw HTTPError.localFile(path: current, message: String(cString: strerror(errno)))
            }
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw HTTPError.localFile(
                    path: current,
                    message: "not a real folder (a symbolic link or a file): nothing is written through it")
            }
        }
    }

    /// Downloads into `.NAME.officer-sync` beside the file, then replaces the file only if it is still what the
    /// plan saw (absent, or the same size and modification time); what the download brought.
    @discardableResult
    static func receive(
        _ item: SyncItem, replacing seen: SyncItem?, in root: String, remote: any SyncRemote,
        onProgress: @escaping @Sendable (Int64) -> Void
    ) async throws -> SyncFetched {
        try checkParents(of: item.path, in: root)
        let final = root + "/" + item.path.description
        let temp = TemporaryNames.path(beside: final, suffix: ".officer-sync")
        // A link where the file goes was left out of the listing (with a warning): said as what it is, and not
        // fetched for nothing.
        try refuseLink(at: final)
        let fetched = try await remote.download(item, to: temp, onProgress: onProgress)
        var info = stat()
        let exists = lstat(final, &info) == 0
        if exists, info.st_mode & S_IFMT == S_IFLNK {
            unlink(temp)
            try refuseLink(at: final)
        }
        let mtime = info.modificationSeconds
        if let seen {
            guard exists, info.st_mode & S_IFMT == S_IFREG, Int64(info.st_size) == seen.size,
                abs(mtime - seen.mtime) < SyncComparison.timeTolerance
            else {
                unlink(temp)
                throw HTTPError.localFile(
                    path: final, message: "changed locally since the sync compared it: not overwritten")
            }
        } else if exists {
            unlink(temp)
            throw HTTPError.localFile(
                path: final, message: "appeared locally since the sync listed the folder: not overwritten")
        }
        // A listed time that is not exact is the one the answer carried, else the remote's exact one (a HEAD).
        let time: Double
        if item.isTimeExact {
            time = item.mtime
        } else if let fetchedTime = fetched.mtime {
            time = storableTime(fetchedTime, in: root)
        } else {
            do {
                time = storableTime(try await remote.exactItem(item).mtime, in: root)
            } catch {
                unlink(temp)
                throw error
            }
        }
        try setModificationTime(temp, to: time)
        guard rename(temp, final) == 0 else {
            throw HTTPError.localFile(path: final, message: String(cString: strerror(errno)))
        }
        return fetched
    }

    /// A symbolic link at `path` is never written through nor replaced by a sync.
    private static func refuseLink(at path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return }
        throw HTTPError.localFile(
            path: path, message: "is a symbolic link here: not replaced (a sync never writes over a link)")
    }

    /// Copies a file through a temp file beside the target (a reader never sees half of it), telling the bytes
    /// copied so far.
    static func copy(_ source: String, to target: String, onProgress: @escaping @Sendable (Int64) -> Void) throws {
        let temp = TemporaryNames.path(beside: target, suffix: ".officer-sync")
        let input: OpenFile
        do { input = try OpenFile(source, O_RDONLY) } catch {
            throw HTTPError.localFile(path: source, message: "\(error)")
        }
        let output: OpenFile
        do { output = try OpenFile(temp, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644) } catch {
            throw HTTPError.localFile(path: temp, message: "\(error)")
        }
        defer { withExtendedLifetime(input) {} }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var copied: Int64 = 0
        do {
            while true {
                let count = SystemCalls.retryingInterrupts {
                    buffer.withUnsafeMutableBytes { read(input.descriptor, $0.baseAddress, $0.count) }
                }
                if count < 0 { throw HTTPError.localFile(path: source, message: String(cString: strerror(errno))) }
                if count == 0 { break }
                let failed = buffer.withUnsafeBytes {
                    SystemCalls.writeAll(output.descriptor, UnsafeRawBufferPointer(rebasing: $0[0..<count]))
                }
                if let failed { throw HTTPError.localFile(path: target, errno: failed) }
                copied += Int64(count)
                onProgress(copied)
            }
            guard SystemCalls.synchronize(output.descriptor) else {
                throw HTTPError.localFile(path: target, errno: errno)
            }
        } catch {
            output.close()
            unlink(temp)
            throw error
        }
        guard output.close() else {
            unlink(temp)
            throw HTTPError.localFile(path: target, message: String(cString: strerror(errno)))
        }
        guard rename(temp, target) == 0 else {
            unlink(temp)
            throw HTTPError.localFile(path: target, message: String(cString: strerror(errno)))
        }
    }

    static func setModificationTime(_ path: String, to mtime: Double) throws {
        let fileTime = FileTime(timeInterval: mtime)
        let time = timespec(tv_sec: time_t(truncatingIfNeeded: fileTime.seconds), tv_nsec: Int(fileTime.nanoseconds))
        var times = [time, time]
        guard utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW) == 0 else {
            throw HTTPError.localFile(path: path, message: String(cString: strerror(errno)))
        }
    }

    static func delete(_ item: SyncItem, in root: String) throws {
        try checkParents(of: item.path, in: root)
        let absolute = root + "/" + item.path.description
        if item.isDirectory {
            try FileManager.default.removeItem(atPath: absolute)
        } else if unlink(absolute) != 0, errno != ENOENT {
            throw HTTPError.localFile(path: absolute, message: String(cString: strerror(errno)))
        }
    }

    /// The time a file in `root` gets when given `mtime`: file systems clamp what they cannot hold (ext4 keeps
    /// nothing after 2446, a 32-bit one nothing after 2038) without an error, so a pulled file's time would differ
    /// from the remote's on every later run. Inside 1901–2038 every file system holds it; outside, one probe
    /// file per distinct time and root tells.
    static func storableTime(_ mtime: Double, in root: String) -> Double {
        guard mtime < 2_147_483_647, mtime >= -2_147_483_648 else { return TimeProbe.shared.stored(mtime, in: root) }
        return mtime
    }
}

/// What a folder's file system keeps of times it may not hold, remembered per folder and time.
private final class TimeProbe: Sendable {
    static let shared = TimeProbe()
    private let known = LockedValue<[String: Double]>([:])

    func stored(_ mtime: Double, in root: String) -> Double {
        let key = "\(root)|\(mtime)"
        if let value = known.withLock({ $0[key] }) { return value }
        let probe = root + "/.officer-time-probe-\(getpid())"
        guard (try? OpenFile(probe, O_CREAT | O_EXCL | O_WRONLY, mode: 0o600))?.close() != nil else { return mtime }
        defer { unlink(probe) }
        var info = stat()
        guard (try? LocalSide.setModificationTime(probe, to: mtime)) != nil, stat(probe, &info) == 0 else {
            return mtime
        }
        let value = FileTime(
            seconds: Int64(info.modificationTime.tv_sec), nanoseconds: Int64(info.modificationTime.tv_nsec)
        ).timeInterval
        known.withLock { $0[key] = value }
        return value
    }
}
