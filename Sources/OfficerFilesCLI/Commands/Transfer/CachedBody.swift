import FileModel
import Foundation
import HTTP
import Officer
import Transfer

/// The cache's copy of a remote file's body, opened at once so that another process evicting it cannot pull
/// it away halfway (an open file stays readable after its name is removed).
struct CachedBody {
    let entry: CacheEntry
    let handle: FileHandle

    /// The cached body for `key` (any version), or nil.
    static func open(_ cache: ContentCache, key: CacheKey) throws -> CachedBody? {
        guard let entry = try cache.entry(for: key), let handle = FileHandle(forReadingAtPath: entry.path) else { return nil }
        return CachedBody(entry: entry, handle: handle)
    }

    /// The version to send as `If-None-Match`: only ETags are (size+mtime versions are not).
    var etag: String? { entry.version.hasPrefix("\"") || entry.version.hasPrefix("W/\"") ? entry.version : nil }

    /// Writes the whole body to `fileDescriptor` (stdout for `cat`).
    func copy(to fileDescriptor: Int32, name: String) throws {
        lseek(handle.fileDescriptor, 0, SEEK_SET)
        do {
            try DescriptorCopy.copy(from: handle.fileDescriptor, to: fileDescriptor)
        } catch {
            throw CLIError.localFile(path: error.reading ? entry.path : name, message: error.message)
        }
    }

    /// Commits a filled staging file when it holds exactly `length` bytes and the server named its version;
    /// a copy abandoned on the way (too large, disk full) is dropped. Never fails the command.
    static func keep(
        _ staged: CacheStagedFile?, in cache: ContentCache?, key: CacheKey, length: Int64, etag: String?, context: CommandContext
    ) {
        guard let staged, let cache, let etag else { return }
        var info = stat()
        guard fstat(staged.fileDescriptor, &info) == 0, Int64(info.st_size) == length else { return }
        do {
            try cache.commit(staged, key: key, version: etag)
        } catch {
            if context.global.verbose { context.console.message("cache: not stored: \(error)") }
        }
    }
}
