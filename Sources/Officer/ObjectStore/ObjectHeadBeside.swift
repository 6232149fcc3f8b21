import FileModel
import HTTP
import Transfer

/// The HEAD of an object asked beside the ranges of its download, whose version the listing gave (each range is
/// held to it with `If-Match`): the digest stored with the object, awaited before the file takes its name, and
/// its stored time, for a round trip less than asking it first.
final class ObjectHeadBeside: Sendable {
    /// The version the ranges are held to, quoted.
    let listedETag: String
    private let asked: Task<ObjectInfo?, any Error>
    private let failure = LockedValue<(any Error)?>(nil)

    /// Asks `head` now.
    init(listedETag: String, head: @escaping @Sendable () async throws -> ObjectInfo?) {
        self.listedETag = listedETag
        asked = Task { try await head() }
    }

    /// What the fetched bytes must match: the HEAD's digest (the SHA-256 stored with the object, else its MD5)
    /// when it answered for the listed version; else what that version's ETag is by itself (a single-part
    /// object's MD5; nil for one stored in parts, whose ranges the ETag held). The HEAD's failure is kept for
    /// ``failureAwaited`` (the download would tell it as its own file's).
    func checksum() async throws -> Checksum? {
        do {
            if let info = try await sameVersion() { return info.contentChecksum }
        } catch {
            failure.withLock { $0 = $0 ?? error }
            throw error
        }
        return ObjectStoreClient.info(key: "", headers: HTTPHeaders([("ETag", listedETag)])).contentChecksum
    }

    /// The HEAD's answer when it is of the listed version; nil when the object is gone or replaced since.
    func sameVersion() async throws -> ObjectInfo? {
        let info = try await withTaskCancellationHandler {
            try await asked.value
        } onCancel: { [asked] in
            asked.cancel()
        }
        guard let info, let etag = info.etag, ObjectInfo.unquoted(etag) == ObjectInfo.unquoted(listedETag) else {
            return nil
        }
        return info
    }

    /// The HEAD's failure, where the download awaited its digest and met it.
    var failureAwaited: (any Error)? { failure.current }

    /// Stops the HEAD if it is still under way.
    func cancel() { asked.cancel() }
}
