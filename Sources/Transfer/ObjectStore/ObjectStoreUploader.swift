import FileModel
import Foundation
import HTTP
import Journal

/// Puts local files into an object store: one PUT below ``multipartThreshold``, a multipart upload above it
/// whose upload id is journaled, so a rerun after a crash, a kill or Ctrl-C asks the store which parts it holds
/// (ListParts), checks each against the local bytes (its ETag is their MD5) and sends only the rest. Every part
/// and every single PUT carries `Content-MD5`, which the store verifies.
package struct ObjectStoreUploader: Sendable {
    /// The store.
    package let client: ObjectStoreClient
    /// Where unfinished multipart uploads are kept; nil keeps none (nothing resumes across runs).
    package let journal: TransferJournal?
    /// Files of at least this many bytes go in parts.
    package var multipartThreshold: Int64 = 32 << 20
    /// Bytes per part; nil picks 8 MiB, or more when the file would need over 10,000 parts (S3's limit).
    package var partSize: Int64?
    /// Parts in flight at once.
    package var concurrency = 4
    /// The remote's name, kept with each journaled upload so a resume uses this remote's keys.
    package var remoteName: String?

    /// An uploader for `client`, journaling in `journal`.
    package init(client: ObjectStoreClient, journal: TransferJournal?) {
        self.client = client
        self.journal = journal
    }

    /// The part size for a file of `size` bytes.
    package func partSize(for size: Int64) -> Int64 {
        if let partSize { return max(5 << 20, partSize) }
        let needed = (size + 9_999) / 10_000
        return max(8 << 20, (needed + (1 << 20) - 1) / (1 << 20) * (1 << 20))
    }

    /// Uploads `file` to `bucket`/`key`, replacing what is there, with the metadata every object we write carries
    /// (``ObjectMetadata``: the file's modification time as rclone writes it, its SHA-256 and MD5) plus `extra`.
    /// Cancelling pauses a multipart upload (the store keeps its parts, the journal the id) unless
    /// `terminateOnCancel`, which aborts it.
    package func upload(
        file: String, bucket: String, key: String, extra: [String: String] = [:],
        contentType: String = "application/octet-stream",
        options: UploadOptions = UploadOptions(), onEvent: (@Sendable (TransferEvent) -> Void)? = nil
    ) async throws(UploadError) -> UploadResult {
        let identity = try FileIdentity(path: file)
        let fingerprint = try FileFingerprint(path: file)
        if fingerprint.size < multipartThreshold {
            return try await putWhole(
                file, identity: identity, fingerprint: fingerprint, bucket: bucket, key: key, extra: extra,
                contentType: contentType, onEvent: onEvent)
        }
        let journalKey = TransferJournal.objectUploadKey(
            endpoint: client.endpoint.url, bucket: bucket, key: key, path: fingerprint.path)
        // What a resumed upload stored at its start: the same file version, so the same time unless overridden.
        let storedTime = extra["mtime"].flatMap(Double.init) ?? fingerprint.mtime
        let upload: TransferJournal.ObjectUpload
        var held: [Int: UploadedPart] = [:]
        var sha256: String?
        switch try await resumable(
            journalKey, file: file, bucket: bucket, key: key, fingerprint: fingerprint, storedTime: storedTime,
            onEvent: onEvent)
        {
        case .storedEarlier(let result):
            return result
        case .resume(let saved, let parts):
            (upload, held) = (saved, parts)
        case .none:
            let digests = try Self.digests(file)
            sha256 = digests.sha256
            upload = try await start(
                journalKey, file: file, fingerprint: fingerprint, bucket: bucket, key: key,
                metadata: ObjectMetadata.metadata(fingerprint: fingerprint, digests: digests).merging(extra) {
                    _, given in given
                }, contentType: contentType)
        }
        var result = try await sendParts(
            of: upload, held: held, identity: identity, options: options, onEvent: onEvent)
        result.upload.sha256 = sha256
        remember(bucket: bucket, key: key, etag: result.etag, size: fingerprint.size, mtime: storedTime)
        return result.upload
    }

    /// One PUT of a file below the multipart threshold.
    private func putWhole(
        _ file: String, identity: FileIdentity, fingerprint: FileFingerprint, bucket: String, key: String,
        extra: [String: String], contentType: String, onEvent: (@Sendable (TransferEvent) -> Void)?
    ) async throws(UploadError) -> UploadResult {
        let size = fingerprint.size
        let digests = try Self.digests(file)
        let metadata = ObjectMetadata.metadata(fingerprint: fingerprint, digests: digests).merging(extra) {
            _, given in given
        }
        onEvent?(.started(total: size, partSizes: [size], resumedBytes: 0, method: .stream))
        let etag: String
        do {
            etag = try await client.put(
                bucket: bucket, key: key, file: file, md5: digests.md5, metadata: metadata, contentType: contentType
            ) { sent in
                onEvent?(.progress(part: 0, done: sent))
            }
        } catch {
            throw Self.uploadError(error, path: file)
        }
        try identity.check(file)
        remember(bucket: bucket, key: key, etag: etag, size: size, mtime: metadata["mtime"].flatMap(Double.init))
        return UploadResult(
            path: file, bytes: size, method: .objectPut, resumedBytes: 0, sentBytes: size, sha256: digests.sha256)
    }

    /// Starts a multipart upload and journals it before a part is sent.
    private func start(
        _ journalKey: String, file: String, fingerprint: FileFingerprint, bucket: String, key: String,
        metadata: [String: String], contentType: String
    ) async throws(UploadError) -> TransferJournal.ObjectUpload {
        let uploadID: String
        do {
            uploadID = try await client.startMultipart(
                bucket: bucket, key: key, metadata: metadata, contentType: contentType)
        } catch {
            throw Self.uploadError(error, path: file)
        }
        let fresh = TransferJournal.ObjectUpload(
            key: journalKey, endpoint: client.endpoint.url, bucket: bucket, objectKey: key,
            localPath: fingerprint.path,
            uploadID: uploadID, partSize: partSize(for: fingerprint.size), fingerprint: fingerprint,
            remote: remoteName)
        try journalCall { () throws(SQLiteError) in try journal?.save(fresh) }
        return fresh
    }

    /// A finished multipart upload: what the caller returns, and the new object's ETag.
    private struct Finished {
        var upload: UploadResult
        var etag: String
    }

    /// Sends the parts the store lacks, then completes the upload and forgets it. Cancelling pauses it (the store
    /// keeps its parts, the journal the id) unless `terminateOnCancel`, which aborts it.
    private func sendParts(
        of upload: TransferJournal.ObjectUpload, held given: [Int: UploadedPart], identity: FileIdentity,
        options: UploadOptions, onEvent: (@Sendable (TransferEvent) -> Void)?
    ) async throws(UploadError) -> Finished {
        let (file, size) = (upload.localPath, upload.fingerprint.size)
        var held = given
        let plan = Self.plan(size: size, partSize: upload.partSize)
        let resumed = held.values.reduce(0) { $0 + $1.size }
        onEvent?(
            .started(
                total: size, partSizes: plan.map(\.length), resumedBytes: resumed, method: .objectParts,
                partsResumed: plan.map { held[$0.number] != nil ? $0.length : 0 }))
        let sent = SentBytes()
        let etag: String
        do {
            let finished = try await sendParts(
                plan.filter { held[$0.number] == nil }, upload: upload, file: file, options: options, sent: sent,
                onEvent: onEvent)
            for part in finished { held[part.number] = part }
            try identity.check(file)
            let parts = plan.compactMap { held[$0.number] }
            await abortOlderUploads(of: upload)
            etag = try await client.completeMultipart(
                bucket: upload.bucket, key: upload.objectKey, uploadID: upload.uploadID, parts: parts)
        } catch {
            if Task.isCancelled || error is CancellationError || Self.isCancellation(error) {
                if options.terminateOnCancel {
                    try? await client.abortMultipart(
                        bucket: upload.bucket, key: upload.objectKey, uploadID: upload.uploadID)
                    try? journal?.removeObjectUpload(key: upload.key)
                    throw .cancelled(path: file)
                }
                onEvent?(.paused(confirmed: resumed + sent.completed, total: size))
                throw .paused(path: file, confirmed: resumed + sent.completed, total: size)
            }
            if let error = error as? UploadError { throw error }
            throw Self.uploadError(error, path: file)
        }
        try journalCall { () throws(SQLiteError) in try journal?.removeObjectUpload(key: upload.key) }
        return Finished(
            upload: UploadResult(
                path: file, bytes: size, method: .objectParts, resumedBytes: resumed, sentBytes: sent.total),
            etag: etag)
    }

    /// Whether the journal keeps an unfinished upload of `file` to `bucket`/`key` (a rerun continues it).
    package func isUnfinished(_ file: String, bucket: String, key: String) -> Bool {
        guard let fingerprint = try? FileFingerprint(path: file) else { return false }
        let journalKey = TransferJournal.objectUploadKey(
            endpoint: client.endpoint.url, bucket: bucket, key: key, path: fingerprint.path)
        return ((try? journal?.objectUpload(key: journalKey)) ?? nil) != nil
    }

    /// Aborts a journaled upload on its store and forgets it (`transfers clean`).
    package func abort(_ upload: TransferJournal.ObjectUpload) async throws(UploadError) {
        do {
            try await client.abortMultipart(bucket: upload.bucket, key: upload.objectKey, uploadID: upload.uploadID)
        } catch {
            throw Self.uploadError(error, path: upload.localPath)
        }
        try journalCall { () throws(SQLiteError) in try journal?.removeObjectUpload(key: upload.key) }
    }

    /// Forgets a journaled upload whose object already holds its file (the local file is the version it began
    /// with, the object has its size and time): a run killed after the store completed it, or another that stored
    /// the file whole, left it; its parts, if any, are aborted. True when it was forgotten.
    @discardableResult
    package func forgetIfStored(_ upload: TransferJournal.ObjectUpload) async -> Bool {
        guard (try? FileFingerprint(path: upload.localPath)) == upload.fingerprint,
            let stored = try? await client.head(bucket: upload.bucket, key: upload.objectKey),
            stored.size == upload.fingerprint.size,
            abs(stored.modificationTime - upload.fingerprint.mtime) < 1e-6
        else { return false }
        try? await client.abortMultipart(bucket: upload.bucket, key: upload.objectKey, uploadID: upload.uploadID)
        return (try? journal?.removeObjectUpload(key: upload.key)) != nil
    }

    /// Aborts the unfinished uploads of the same key the store holds from before this one: a run killed between
    /// starting one and journaling it left it (no journal names it), and completed later it could only put an
    /// older version over this one. Best effort: a store that cannot list them keeps them.
    private func abortOlderUploads(of upload: TransferJournal.ObjectUpload) async {
        guard let listed = try? await client.unfinishedUploads(bucket: upload.bucket, prefix: upload.objectKey),
            let own = listed.first(where: { $0.uploadID == upload.uploadID })
        else { return }
        for other in listed
        where other.key == upload.objectKey && other.uploadID != own.uploadID && other.initiated <= own.initiated {
            try? await client.abortMultipart(bucket: upload.bucket, key: other.key, uploadID: other.uploadID)
        }
    }

    /// Remembers the time stored with the new object for its ETag, so a later sync need not ask the store for
    /// it (``TransferJournal/objectTimes(endpoint:bucket:prefix:)``); a journal that cannot be written only costs
    /// a HEAD then.
    private func remember(bucket: String, key: String, etag: String, size: Int64, mtime: Double?) {
        guard let mtime, !etag.isEmpty else { return }
        try? journal?.rememberObjectTime(
            endpoint: client.endpoint.url, bucket: bucket, key: key,
            .init(etag: ObjectInfo.unquoted(etag), size: size, mtime: mtime))
    }

    /// What an earlier run left of this upload: parts to keep, nothing, or the whole object already stored.
    enum Resumable {
        case none
        case resume(TransferJournal.ObjectUpload, held: [Int: UploadedPart])
        case storedEarlier(UploadResult)
    }

    /// The journaled upload of `file` to `bucket`/`key` to continue, with the parts the store holds of it. An
    /// upload the store no longer has was completed by a run killed before it could say so (or was aborted): the
    /// object then holds this very file (the SHA-256 stored with it is the file's) and nothing is sent again.
    private func resumable(
        _ journalKey: String, file: String, bucket: String, key: String, fingerprint: FileFingerprint,
        storedTime: Double, onEvent: (@Sendable (TransferEvent) -> Void)?
    ) async throws(UploadError) -> Resumable {
        guard let saved = try journalCall({ () throws(SQLiteError) in try journal?.objectUpload(key: journalKey) })
        else { return .none }
        guard saved.fingerprint == fingerprint else {
            onEvent?(.restarted(reason: "the local file changed since the interrupted upload"))
            try? await client.abortMultipart(bucket: bucket, key: key, uploadID: saved.uploadID)
            return .none
        }
        let listed: Result<[UploadedPart], ObjectStoreError>
        do {
            listed = .success(try await client.listParts(bucket: bucket, key: key, uploadID: saved.uploadID))
        } catch {
            listed = .failure(error)
        }
        switch listed {
        case .success(let parts):
            do {
                return .resume(
                    saved, held: try Self.verified(parts, of: file, partSize: saved.partSize, size: fingerprint.size))
            } catch {
                throw Self.uploadError(error, path: file)
            }
        case .failure(.server(_, 404, "NoSuchUpload", _)):
            try journalCall { () throws(SQLiteError) in try journal?.removeObjectUpload(key: journalKey) }
            if let result = try await storedEarlier(
                file, bucket: bucket, key: key, fingerprint: fingerprint, storedTime: storedTime)
            {
                return .storedEarlier(result)
            }
            onEvent?(.restarted(reason: "the store no longer has the unfinished upload"))
            return .none
        case .failure(let error):
            throw Self.uploadError(error, path: file)
        }
    }

    /// The result of an upload an earlier run completed: the object under `key` has the file's size, time and
    /// SHA-256 (stored with it by that run); nil when it holds anything else.
    private func storedEarlier(
        _ file: String, bucket: String, key: String, fingerprint: FileFingerprint, storedTime: Double
    ) async throws(UploadError) -> UploadResult? {
        let stored: ObjectInfo?
        do { stored = try await client.head(bucket: bucket, key: key) } catch { return nil }
        guard let stored, stored.size == fingerprint.size, let storedDigest = stored.sha256,
            abs(stored.modificationTime - storedTime) < 1e-6
        else { return nil }
        let digests = try Self.digests(file)
        guard digests.sha256 == storedDigest else { return nil }
        remember(bucket: bucket, key: key, etag: stored.etag ?? "", size: stored.size, mtime: storedTime)
        return UploadResult(
            path: file, bytes: fingerprint.size, method: .objectParts, resumedBytes: fingerprint.size, sentBytes: 0,
            sha256: digests.sha256)
    }

    // MARK: Parts

    struct PlannedPart: Sendable {
        var number: Int
        var index: Int
        var start: Int64
        var length: Int64
    }

    static func plan(size: Int64, partSize: Int64) -> [PlannedPart] {
        let count = max(1, Int((size + partSize - 1) / partSize))
        return (0..<count).map { index in
            let start = Int64(index) * partSize
            return PlannedPart(number: index + 1, index: index, start: start, length: min(partSize, size - start))
        }
    }

    /// The parts the store holds that are the local bytes: the right size at the right place and an ETag that is
    /// their MD5. Anything else is sent again.
    static func verified(_ parts: [UploadedPart], of file: String, partSize: Int64, size: Int64)
        throws(ObjectStoreError) -> [Int: UploadedPart]
    {
        let plan = plan(size: size, partSize: partSize)
        var result: [Int: UploadedPart] = [:]
        for part in parts where part.number >= 1 && part.number <= plan.count {
            let planned = plan[part.number - 1]
            guard part.size == planned.length else { continue }
            let md5 = try ObjectStoreClient.md5(file: file, offset: planned.start, length: planned.length)
            if ObjectInfo.unquoted(part.etag).lowercased() == SignatureV4.hex(md5) {
                result[part.number] = part
            }
        }
        return result
    }

    private func sendParts(
        _ parts: [PlannedPart], upload: TransferJournal.ObjectUpload, file: String, options: UploadOptions,
        sent: SentBytes,
        onEvent: (@Sendable (TransferEvent) -> Void)?
    ) async throws -> [UploadedPart] {
        let client = client
        let width = max(1, concurrency)
        let rate = options.bandwidthLimit.map { max(1, $0 / Int64(width)) }
        return try await withThrowingTaskGroup(of: UploadedPart.self) { group in
            var pending = parts[...]
            var finished: [UploadedPart] = []
            func launch() {
                guard let part = pending.popFirst() else { return }
                group.addTask {
                    try Task.checkCancellation()
                    let md5 = try ObjectStoreClient.md5(file: file, offset: part.start, length: part.length)
                    let etag = try await client.uploadPart(
                        bucket: upload.bucket, key: upload.objectKey, uploadID: upload.uploadID, number: part.number,
                        file: file,
                        offset: part.start, length: part.length, md5: md5, maxBytesPerSecond: rate
                    ) { bytes in
                        sent.add(attemptBytes: bytes, part: part.number)
                        onEvent?(.progress(part: part.index, done: bytes))
                    }
                    sent.complete(part: part.number, length: part.length)
                    return UploadedPart(number: part.number, etag: etag, size: part.length)
                }
            }
            for _ in 0..<width { launch() }
            while let part = try await group.next() {
                finished.append(part)
                launch()
            }
            return finished
        }
    }

    static func digests(_ file: String) throws(UploadError) -> ObjectMetadata.Digests {
        do {
            return try ObjectMetadata.digests(of: file)
        } catch {
            throw .localFile(path: file, message: error.detailWithoutPath)
        }
    }

    // MARK: Errors

    static func isCancellation(_ error: any Error) -> Bool {
        switch error {
        case ObjectStoreError.transfer(.cancelled): true
        case UploadError.transfer(.cancelled): true
        default: false
        }
    }

    static func uploadError(_ error: any Error, path: String) -> UploadError {
        switch error {
        case let error as UploadError: return error
        case ObjectStoreError.transfer(let inner): return .transfer(inner)
        case ObjectStoreError.localFile(let path, let message): return .localFile(path: path, message: message)
        case ObjectStoreError.server(let request, let status, let code, let message):
            return .server(request: request, status: status, message: code.map { "\($0): \(message)" } ?? message)
        case ObjectStoreError.noSuchBucket(let bucket):
            return .server(request: "PUT \(bucket)", status: 404, message: "\(bucket): no such bucket")
        case ObjectStoreError.accessDenied(let request, _, _):
            return .server(request: request, status: 403, message: "\(error)")
        case ObjectStoreError.integrity(let request, let detail):
            return .protocolViolation(request: request, detail: detail)
        case let error as ObjectStoreError: return .server(request: "upload", status: 500, message: error.description)
        case is CancellationError: return .cancelled(path: path)
        default: return .localFile(path: path, message: "\(error)")
        }
    }

    private func journalCall<T>(_ body: () throws(SQLiteError) -> T) throws(UploadError) -> T {
        do { return try body() } catch { throw .journal(error) }
    }
}

/// Bytes sent in this run: completed parts plus what the current attempts of the others have sent.
final class SentBytes: Sendable {
    private struct Counts {
        var inFlight: [Int: Int64] = [:]
        var done: Int64 = 0
        var attempts: Int64 = 0
    }
    private let counts = LockedValue(Counts())

    func add(attemptBytes: Int64, part: Int) {
        counts.withLock { counts in
            // A retried attempt starts from zero again: what the failed one sent still went over the wire.
            let previous = counts.inFlight[part] ?? 0
            if attemptBytes < previous { counts.attempts += previous }
            counts.inFlight[part] = attemptBytes
        }
    }

    func complete(part: Int, length: Int64) {
        counts.withLock { counts in
            counts.attempts += counts.inFlight[part] ?? 0
            counts.inFlight[part] = nil
            counts.done += length
        }
    }

    /// Bytes of completed parts.
    var completed: Int64 { counts.withLock { $0.done } }
    /// Every byte put on the wire.
    var total: Int64 { counts.withLock { $0.attempts + $0.inFlight.values.reduce(0, +) } }
}
