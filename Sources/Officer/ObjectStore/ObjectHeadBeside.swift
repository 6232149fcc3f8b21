import FileModel
import Transfer

/// The HEAD of an object asked beside the ranges of its download, whose version the listing gave (each range is
/// held to it with `If-Match`): the digest stored with the object, awaited before the file takes its name, and
/// its stored time, for a round trip less than asking it first.
final class ObjectHeadBeside: Sendable {
    /// The version the ranges are held to, quoted.
    let listedETag: String
    private let asked: Task<ObjectInfo?, any Error>
    private let failure = LockedValue<(any Error)?>(nil)
    private let replaced = LockedValue(false)

    /// Asks `head` now.
    init(listedETag: String, head: @escaping @Sendable () async throws -> ObjectInfo?) {
        self.listedETag = listedETag
        asked = Task { try await head() }
    }

    /// What the fetched bytes must match: the HEAD's digest (the SHA-256 stored with the object, else its MD5),
    /// when it answered for the listed version. When it found the object replaced or gone, that version's stored
    /// digest is nowhere to be had: this fails, and ``foundAnotherVersion`` says so (the caller fetches the object
    /// again as it is now). The HEAD's own failure is kept for ``failureAwaited`` (the download would tell it as its
    /// own file's).
    func checksum() async throws -> Checksum? {
        let info: ObjectInfo?
        do {
            info = try await sameVersion()
        } catch {
            failure.withLock { $0 = $0 ?? error }
            throw error
        }
        guard let info else {
            replaced.withLock { $0 = true }
            throw VersionGone()
        }
        return info.contentChecksum
    }

    /// Whether the HEAD found the object replaced or gone since the listing (the bytes fetched were not checked).
    var foundAnotherVersion: Bool { replaced.current }

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

    /// The listed version is no longer the object's (the caller looks at ``foundAnotherVersion``, not at this).
    struct VersionGone: Error {}

    /// Stops the HEAD if it is still under way.
    func cancel() { asked.cancel() }
}
