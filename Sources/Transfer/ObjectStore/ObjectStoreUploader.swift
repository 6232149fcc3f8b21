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
    /// Bytes per part; nil picks one by the file's size (``partSize(for:)``).
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

    /// The part size for a file of `size` bytes: a 32nd of it in whole MiB, at least 8 MiB and at most 64 MiB,
    /// larger only where S3's 10,000 parts demand it. Each part costs the store a request of its own (on the test
    /// store a 1 GiB upload took a second longer in 8 MiB parts than in 32 MiB ones), and a part cut off by a kill
    /// or a failure is sent again whole: a bounded part keeps that, at four in flight, within 256 MiB.
    package func partSize(for size: Int64) -> Int64 {
        if let partSize { return max(5 << 20, partSize) }
        let mebibyte: Int64 = 1 << 20
        func wholeMiB(_ bytes: Int64) -> Int64 { (bytes + mebibyte - 1) / mebibyte * mebibyte }
        let chosen = min(64 << 20, max(8 << 20, wholeMiB(size / 32)))
        return max(chosen, wholeMiB((size + 9_999) / 10_000))
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
        var job = Job(
            file: file, bucket: bucket, key: key, fingerprint: fingerprint, identity: identity,
            journalKey: TransferJournal.objectUploadKey(
                endpoint: client.endpoint.url, bucket: bucket, key: key, path: fingerprint.path),
            // What a resumed upload stored at its start: the same file version, so the same time unless overridden.
            storedTime: extra["mtime"].flatMap(Double.init) ?? fingerprint.mtime, extra: extra,
            contentType: contentType, options: options, onEvent: onEvent)
        var machine = ObjectUploadMachine(size: fingerprint.size, threshold: multipartThreshold)
        var action = machine.begin()
        while true {
            if case .finish(let storedEarlier) = action {
                guard !storedEarlier, let finished = job.finished else { return job.storedEarlier! }
                var result = finished.upload
                result.sha256 = job.sha256
                remember(bucket: bucket, key: key, etag: finished.etag, size: fingerprint.size, mtime: job.storedTime)
                return result
            }
            if case .putWhole = action {
                return try await putWhole(
                    file, identity: identity, fingerprint: fingerprint, bucket: bucket, key: key, extra: extra,
                    contentType: contentType, onEvent: onEvent)
            }
            let (notices, next) = machine.handle(try await perform(action, job: &job))
            for case .restarted(let reason) in notices { onEvent?(.restarted(reason: reason)) }
            action = next
        }
    }

    /// What one upload is of, and what its steps have learnt.
    private struct Job {
        var file: String
        var bucket: String
        var key: String
        var fingerprint: FileFingerprint
        var identity: FileIdentity
        var journalKey: String
        var storedTime: Double
        var extra: [String: String]
        var contentType: String
        var options: UploadOptions
        var onEvent: (@Sendable (TransferEvent) -> Void)?
        /// The journaled upload read, or the one under way.
        var upload: TransferJournal.ObjectUpload?
        /// The parts the store holds of it that are the local bytes.
        var held: [Int: UploadedPart] = [:]
        /// The file's SHA-256, when this run hashed it.
        var sha256: String?
        /// Parts' MD5s this run hashed with the whole file's digests, by part number.
        var partMD5s: [Int: [UInt8]] = [:]
        /// An earlier run's result, when the object already holds the file.
        var storedEarlier: UploadResult?
        /// The completed upload.
        var finished: Finished?
    }

    /// Carries out one of the machine's steps on the journal and the store.
    private func perform(_ action: ObjectUploadMachine.Action, job: inout Job) async throws(UploadError)
        -> ObjectUploadMachine.Event
    {
        let (file, bucket, key, fingerprint) = (job.file, job.bucket, job.key, job.fingerprint)
        switch action {
        case .readRecord:
            let journalKey = job.journalKey
            job.upload = try journalCall { () throws(SQLiteError) in try journal?.objectUpload(key: journalKey) }
            return .recordRead(
                job.upload.map { .init(uploadID: $0.uploadID, sameFile: $0.fingerprint == fingerprint) })
        case .abort(let uploadID):
            try? await client.abortMultipart(bucket: bucket, key: key, uploadID: uploadID)
            return .aborted
        case .listParts(let uploadID):
            return try await listParts(uploadID, job: &job)
        case .checkStoredEarlier:
            job.storedEarlier = try await storedEarlier(
                file, bucket: bucket, key: key, fingerprint: fingerprint, storedTime: job.storedTime)
            return .storedEarlier(job.storedEarlier != nil)
        case .start:
            let digests = try Self.digests(
                file, parts: Self.plan(size: fingerprint.size, partSize: partSize(for: fingerprint.size)))
            job.sha256 = digests.sha256
            job.partMD5s = digests.partMD5s
            let metadata = ObjectMetadata.metadata(fingerprint: fingerprint, digests: digests).merging(job.extra) {
                _, given in given
            }
            job.upload = try await start(
                job.journalKey, file: file, fingerprint: fingerprint, bucket: bucket, key: key, metadata: metadata,
                contentType: job.contentType)
            job.held = [:]
            return .started
        case .send:
            job.finished = try await sendParts(
                of: job.upload!, held: job.held, partMD5s: job.partMD5s, identity: job.identity, options: job.options,
                onEvent: job.onEvent)
            return .completed
        case .putWhole, .finish:
            preconditionFailure("\(action) ends the upload")
        }
    }

    /// The parts of the journaled upload the store holds that are the local bytes; `uploadGone` when the store no
    /// longer has the upload (its record is then forgotten).
    private func listParts(_ uploadID: String, job: inout Job) async throws(UploadError) -> ObjectUploadMachine.Event {
        let listed: Result<[UploadedPart], ObjectStoreError>
        do {
            listed = .success(try await client.listParts(bucket: job.bucket, key: job.key, uploadID: uploadID))
        } catch {
            listed = .failure(error)
        }
        switch listed {
        case .success(let parts):
            do {
                job.held = try Self.verified(
                    parts, of: job.file, partSize: job.upload!.partSize, size: job.fingerprint.size)
            } catch {
                throw uploadError(error, path: job.file)
            }
            return .partsListed(held: Set(job.held.keys))
        case .failure(.server(_, 404, "NoSuchUpload", _)):
            let journalKey = job.journalKey
            try journalCall { () throws(SQLiteError) in try journal?.removeObjectUpload(key: journalKey) }
            return .uploadGone
        case .failure(let error):
            throw uploadError(error, path: job.file)
        }
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
            throw uploadError(error, path: file)
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
            throw uploadError(error, path: file)
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
        of upload: TransferJournal.ObjectUpload, held given: [Int: UploadedPart], partMD5s: [Int: [UInt8]],
        identity: FileIdentity, options: UploadOptions, onEvent: (@Sendable (TransferEvent) -> Void)?
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
                plan.filter { held[$0.number] == nil }, upload: upload, file: file, partMD5s: partMD5s,
                options: options, sent: sent, onEvent: onEvent)
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
            throw uploadError(error, path: file)
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
            throw uploadError(error, path: upload.localPath)
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
        // Only the SHA-256 is compared: the MD5 beside it would more than double the reading's cost.
        let sha256: String
        do { sha256 = try SHA256Hasher.hash(file: file) } catch {
            throw .localFile(path: file, message: error.detailWithoutPath)
        }
        guard sha256 == storedDigest else { return nil }
        remember(bucket: bucket, key: key, etag: stored.etag ?? "", size: stored.size, mtime: storedTime)
        return UploadResult(
            path: file, bytes: fingerprint.size, method: .objectParts, resumedBytes: fingerprint.size, sentBytes: 0,
            sha256: sha256)
    }

    // MARK: Parts

    static func plan(size: Int64, partSize: Int64) -> [ObjectMetadata.PartSpan] {
        let count = max(1, Int((size + partSize - 1) / partSize))
        return (0..<count).map { index in
            let start = Int64(index) * partSize
            return ObjectMetadata.PartSpan(number: index + 1, start: start, length: min(partSize, size - start))
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
        _ parts: [ObjectMetadata.PartSpan], upload: TransferJournal.ObjectUpload, file: String,
        partMD5s: [Int: [UInt8]], options: UploadOptions, sent: SentBytes,
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
                    let md5 =
                        try partMD5s[part.number]
                        ?? ObjectStoreClient.md5(file: file, offset: part.start, length: part.length)
                    let etag = try await client.uploadPart(
                        bucket: upload.bucket, key: upload.objectKey, uploadID: upload.uploadID, number: part.number,
                        file: file,
                        offset: part.start, length: part.length, md5: md5, maxBytesPerSecond: rate
                    ) { bytes in
                        sent.add(attemptBytes: bytes, part: part.number)
                        onEvent?(.progress(part: part.number - 1, done: bytes))
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

    static func digests(_ file: String, parts: [ObjectMetadata.PartSpan] = []) throws(UploadError)
        -> ObjectMetadata.Digests
    {
        do {
            return try ObjectMetadata.digests(of: file, parts: parts)
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

    func uploadError(_ error: any Error, path: String) -> UploadError {
        switch error {
        case let error as UploadError: return error
        case ObjectStoreError.transfer(let inner): return .transfer(inner)
        case ObjectStoreError.localFile(let path, let message): return .localFile(path: path, message: message)
        case ObjectStoreError.server(let request, let status, let code, let message):
            return .server(request: request, status: status, message: code.map { "\($0): \(message)" } ?? message)
        case ObjectStoreError.noSuchBucket(let bucket):
            return .server(request: client.label("PUT", bucket), status: 404, message: "\(bucket): no such bucket")
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
