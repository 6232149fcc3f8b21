import HTTP
import Journal

/// A cache failure, naming the cache directory or entry concerned.
package enum CacheError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The index database failed.
    case index(SQLiteError)
    /// A file in the cache could not be written, read or removed (disk full included).
    case io(path: String, message: String)
    /// The entry cannot fit even with every unpinned entry evicted.
    case tooLarge(key: CacheKey, size: Int64, available: Int64)
    /// No entry for this key.
    case notCached(key: CacheKey)
    /// The bytes to store do not match the remote's validator: they were damaged on the way and are not admitted.
    case damaged(key: CacheKey, expected: String, actual: String)

    /// A one-line message.
    package var description: String {
        switch self {
        case .index(let error): "cache index: \(error)"
        case .io(let path, let message): "cache: \(path): \(message)"
        case .tooLarge(let key, let size, let available):
            "cache: \(key.root):\(key.path) (\(size) bytes) does not fit: only \(available) bytes are not pinned within the limit"
        case .notCached(let key): "cache: \(key.root):\(key.path) is not cached"
        case .damaged(let key, let expected, let actual):
            "cache: \(key.root):\(key.path): the bytes hash to \(actual), not the \(expected) the server gives; not stored"
        }
    }
}
