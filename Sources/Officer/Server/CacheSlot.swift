import FileModel
import Foundation
import Transfer

/// The cache, opened once on first use and shared by every operation.
final class CacheSlot: Sendable {
    private let directory: String?
    private let limit: Int64
    private let opened = LockedValue<ContentCache?>(nil)

    init(directory: String?, limit: Int64) {
        self.directory = directory
        self.limit = limit
    }

    func open() throws(CacheError) -> ContentCache? {
        let (directory, limit) = (directory, limit)
        let opening = opened.withLock { opened -> Result<ContentCache?, CacheError> in
            if let opened { return .success(opened) }
            guard let directory else { return .success(nil) }
            do throws(CacheError) {
                let cache = try ContentCache(directory: directory, limit: limit)
                opened = cache
                return .success(cache)
            } catch {
                return .failure(error)
            }
        }
        return try opening.get()
    }
}
