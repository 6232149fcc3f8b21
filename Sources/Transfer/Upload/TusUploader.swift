import FileModel
import Foundation
import HTTP
import Journal

/// The default ``Uploading``: tus 1.0 with creation, creation-with-upload, per-chunk checksums,
/// termination, expiration and concatenation; the journal makes it survive process death. A server
/// without tus gets one multipart POST (not resumable) when the target offers one.
package struct TusUploader: Uploading {
    /// The transport; its retry policy sets the delays between attempts.
    package var http: HTTPClient
    /// Where uploads are recorded for resuming; nil keeps nothing.
    package var journal: TransferJournal?
    /// What each endpoint's OPTIONS said, the largest body it accepted after a 413, and whether the user was told
    /// it cannot resume: shared by the copies of this uploader, and by every uploader given the same one.
    package let endpoints: UploadEndpoints
    private var discovered: EndpointMemo<TusServerInfo?> { endpoints.discovered }
    private var bodyLimits: EndpointMemo<Int64> { endpoints.bodyLimits }
    private var lastBodies: EndpointMemo<BodyTiming> { endpoints.lastBodies }
    /// Files up to this size go up inside the creation request (creation-with-upload).
    static let inlineLimit: Int64 = 4 << 20
    /// Names a local file's MIME type for the `filetype` metadata item; nil sends none. The uploader knows no
    /// file types itself (that is Preview's libmagic, wired in by the layer above).
    package var fileType: (@Sendable (String) -> String?)?
    /// Asks the destination what it holds under an upload's name, when the last request failed or was in doubt;
    /// nil trusts the tus server's offset alone (any tus server: its `HEAD` is all there is to ask).
    package var confirmer: (any UploadConfirming)?

    /// Creates an uploader; `fileType` names each file's MIME type for the `filetype` metadata item, `confirmer`
    /// answers what the destination holds.
    package init(
        http: HTTPClient, journal: TransferJournal?, fileType: (@Sendable (String) -> String?)? = nil,
        confirmer: (any UploadConfirming)? = nil
    ) {
        self.init(http: http, journal: journal, fileType: fileType, confirmer: confirmer, endpoints: UploadEndpoints())
    }

    /// An uploader sharing what `endpoints` learnt with the others given it.
    package init(
        http: HTTPClient, journal: TransferJournal?, fileType: (@Sendable (String) -> String?)?,
        confirmer: (any UploadConfirming)?,
        endpoints: UploadEndpoints
    ) {
        self.http = http
        self.journal = journal
        self.fileType = fileType
        self.confirmer = confirmer
        self.endpoints = endpoints
    }

    /// The upload is gone on the server (expired, terminated): start over.
    struct StartOver: Error {
        var reason: String
        /// Bytes the server kept were found damaged after the whole file was there: sent again once, not twice.
        var fromDamage = false
    }

    /// Uploads `path` to `target`, resuming what the journal holds of it; `onEvent` hears its progress.
    package func upload(
        file path: String, to target: UploadTarget, options: UploadOptions = UploadOptions(),
        onEvent: (@Sendable (TransferEvent) -> Void)? = nil
    ) async throws(UploadError) -> UploadResult {
        var target = target
        let path = URL(fileURLWithPath: path).standardizedFileURL.path
        // Taken first: a change after it, however early, shows when it is checked again before the last bytes.
        let identity = try FileIdentity(path: path)
        let fingerprint = try FileFingerprint(path: path)
        var key = TransferJournal.uploadKey(path: path, target: target)
        // Held while this runs, so `transfers clean` leaves a running upload alone.
        var hold = journal?.hold(transfer: key)
        defer { withExtendedLifetime(hold) {} }
        let counter = SentCounter()
        var record: TransferJournal.Upload?
        do {
            guard let info = try await resumableForm(of: target, path: path, options: options) else {
                return try await withoutTus(target, onEvent: onEvent).upload(
                    file: path, fingerprint: fingerprint, identity: identity, to: target, options: options,
                    onEvent: onEvent)
            }
            if info.dialect != .tus {
                // The IETF form's upload is journaled under its own endpoint.
                key = TransferJournal.uploadKey(path: path, target: target, dialect: info.dialect)
                hold = journal?.hold(transfer: key)
            }
            if let limit = info.maxSize, fingerprint.size > limit {
                throw UploadError.tooLarge(path: path, size: fingerprint.size, limit: limit)
            }
            return try await placeRestarting(
                key: key, path: path, fingerprint: fingerprint, identity: identity, target: &target, info: info,
                options: options, counter: counter, record: &record, onEvent: onEvent)
        } catch  where error is CancellationError || (Task.isCancelled && record != nil) {
            // Whatever step met the cancel (the question after the last bytes whether the server holds the file, cut
            // short, too): a pause where the same call continues, never a failure that gives the server's upload up.
            guard let record else { throw UploadError.cancelled(path: path) }
            throw await stopped(
                record, key: key, path: path, size: fingerprint.size, target: target, options: options,
                onEvent: onEvent)
        } catch let error as UploadError where error.isNotStored {
            // The server's upload says complete but no such file (or not these bytes) is there: its bytes can never be
            // placed now, so a rerun starts afresh instead of asking the same upload again.
            if let record { await terminate(record, credential: target.credential) }
            throw error
        } catch UploadError.serverFull(let destination, let message, _) {
            // What the server holds of the upload fills the disk that refused it: a server left full fails every
            // other write (as rclone aborts a failed multipart upload, the space is given back).
            let kept = record ?? ((try? journal?.upload(key: key)) ?? nil)
            if let kept { await terminate(kept, credential: target.credential) }
            throw UploadError.serverFull(destination: destination, message: message, givenBack: kept != nil)
        } catch let error as UploadError {
            throw error
        } catch let error as SQLiteError {
            throw UploadError.journal(error)
        } catch {
            throw UploadError.localFile(path: path, message: "\(error)")
        }
    }

    /// Sends the file until the server holds it, starting over (every part terminated) when the server lost the
    /// upload or the file changed: twice at most, and once only for damage found after the whole file was there.
    /// `record` is the upload under way, for the caller's failure handling.
    private func placeRestarting(
        key: String, path: String, fingerprint: FileFingerprint, identity: FileIdentity, target: inout UploadTarget,
        info: TusServerInfo, options: UploadOptions, counter: SentCounter, record: inout TransferJournal.Upload?,
        onEvent: (@Sendable (TransferEvent) -> Void)?
    ) async throws -> UploadResult {
        var restarts = 0
        var resentForDamage = 0
        while true {
            do {
                let (prepared, isResumed) = try await prepare(
                    key: key, path: path, fingerprint: fingerprint, target: target, info: info, options: options,
                    fresh: restarts > 0, counter: counter, onEvent: onEvent)
                record = prepared
                return try await run(
                    prepared, resuming: isResumed, identity: identity, info: info, options: options, counter: counter,
                    onEvent: onEvent)
            } catch is AlreadyStored {
                try? journal?.removeUpload(key: key)
                return UploadResult(
                    path: path, bytes: fingerprint.size, method: info.dialect.method, resumedBytes: 0,
                    sentBytes: counter.value, uploadURL: nil)
            } catch let startOver as StartOver {
                restarts += 1
                if startOver.fromDamage {
                    resentForDamage += 1
                    // The damaged file under the name is this upload's own: the new one replaces it.
                    target = target.replacingItsOwnCopy()
                }
                if restarts > 2 || resentForDamage > 1 {
                    throw UploadError.protocolViolation(
                        request: "PATCH \(target.endpoint(in: info.dialect))", detail: startOver.reason)
                }
                // Every part goes: those that have not expired yet would otherwise stay on the server until they do.
                if let record {
                    await terminate(record, credential: target.credential)
                } else {
                    try? journal?.removeUpload(key: key)
                }
                record = nil
                // Damage found after the fact is told whatever the verbosity: the user is owed why it went twice.
                if startOver.fromDamage { onEvent?(.warning(startOver.reason)) }
                onEvent?(.restarted(reason: startOver.reason))
            }
        }
    }

    // MARK: Plan

    /// Finds the journaled upload to continue (true), or creates a new one (false), terminating a stale one first.
    private func prepare(
        key: String, path: String, fingerprint: FileFingerprint, target: UploadTarget, info: TusServerInfo,
        options: UploadOptions, fresh: Bool, counter: SentCounter, onEvent: (@Sendable (TransferEvent) -> Void)?
    ) async throws -> (TransferJournal.Upload, Bool) {
        if !fresh, var saved = try journal?.upload(key: key) {
            // The journal never holds the token: this run's credentials go with the old upload.
            saved.target.credential = target.credential
            if saved.fingerprint == fingerprint, saved.parts.allSatisfy({ $0.url != nil }),
                saved.dialect ?? .tus == info.dialect
            {
                return (saved, true)
            }
            // The local file changed since: its bytes on the server are of another version.
            await terminate(saved, credential: target.credential)
            try journal?.removeUpload(key: key)
            onEvent?(.restarted(reason: "\(path) changed since the upload began"))
        }
        let size = fingerprint.size
        let partCount =
            info.extensions.contains("concatenation") && options.parts > 1
            ? max(1, min(options.parts, Int(size / (1 << 20)))) : 1
        var record = TransferJournal.Upload(
            key: key, localPath: path, label: target.label, target: target, fingerprint: fingerprint,
            parts: (0..<partCount).map { index in
                let start = size * Int64(index) / Int64(partCount)
                let end = size * Int64(index + 1) / Int64(partCount)
                return TransferJournal.UploadPart(index: index, start: start, length: end - start, url: nil, offset: 0)
            }, dialect: info.dialect)
        // Said before the creation: a small file goes up inside it, and its bytes show as they go.
        onEvent?(
            .started(
                total: size, partSizes: record.parts.map(\.length), resumedBytes: 0, method: info.dialect.eventMethod))
        for index in record.parts.indices {
            let part = record.parts[index]
            let created = try await create(
                target: target, info: info, path: path, part: part, partial: partCount > 1, fingerprint: fingerprint,
                options: options, onProgress: { onEvent?(.progress(part: index, done: $0)) })
            record.parts[index].url = created.url
            record.parts[index].offset = created.offset
            counter.add(created.offset)
            // Journaled at once: a crash from here on resumes this upload rather than orphaning it.
            try journal?.save(record)
        }
        return (record, false)
    }

    /// The creation request in the upload's dialect, whether it carries the whole part (a small one goes inside
    /// it; an empty one in the IETF form is created complete, as tus completes a length of 0 by itself), and the
    /// bytes of the part it carries (a large file's first chunk rides with a tus creation: its round trip is the
    /// creation's).
    private func creationRequest(
        target: UploadTarget, info: TusServerInfo, path: String, part: TransferJournal.UploadPart, partial: Bool,
        options: UploadOptions, firstChunk: Bool
    ) throws -> (request: HTTPRequest, inline: Bool, carried: Int64) {
        let dialect = info.dialect
        let endpoint = target.endpoint(in: dialect)
        // The IETF form carries the destination in the creation URL's query, built from the same items tus's
        // Upload-Metadata carries (the target's, the detected file type, the caller's own).
        let url =
            dialect == .tus
            ? endpoint
            : UploadDialect.ietfCreationURL(
                endpoint: endpoint, items: metadataItems(for: target, file: path, extra: options.metadata))
        var request = HTTPRequest(method: "POST", url: url, credential: target.credential, isIdempotent: false)
        dialect.mark(&request)
        switch dialect {
        case .tus:
            request.headers.add("Upload-Length", String(part.length))
            if partial {
                request.headers.add("Upload-Concat", "partial")
            } else {
                request.headers.add("Upload-Metadata", metadataHeader(for: target, file: path, extra: options.metadata))
            }
        case .ietf(let version):
            if version >= 6 { request.headers.add("Upload-Length", String(part.length)) }
        }
        let algorithm = options.checksums ? info.checksumAlgorithm : nil
        let inlineLimit = min(
            options.chunkSize ?? Self.inlineLimit, bodyLimits[endpoint] ?? Self.inlineLimit, Self.inlineLimit)
        let offersBody = info.extensions.contains("creation-with-upload")
        let inline = offersBody && part.length <= inlineLimit && (part.length > 0 || dialect != .tus)
        // Only tus: an IETF creation that carries part of the body answers only once the body is in (a 104 first).
        let carriesFirstChunk = firstChunk && offersBody && dialect == .tus && part.length > inlineLimit
        let carried = inline ? part.length : carriesFirstChunk ? min(ChunkSizer.initial, inlineLimit) : 0
        if carried > 0 {
            request.body = .file(
                path: path, offset: part.start, length: carried, contentType: dialect.creationContentType)
            if let algorithm {
                let field = dialect.checksumField(
                    try Self.checksumHeader(algorithm, path: path, offset: part.start, length: carried))
                request.headers.add(field.name, field.value)
            }
        }
        dialect.markCompletion(&request, complete: inline)
        return (request, inline, carried)
    }

    /// POST: creates an upload; small files go up in the same request, a large one's first chunk with it
    /// (creation-with-upload); `firstChunk: false` creates it without a body.
    private func create(
        target: UploadTarget, info: TusServerInfo, path: String, part: TransferJournal.UploadPart, partial: Bool,
        fingerprint: FileFingerprint, options: UploadOptions, firstChunk: Bool = true,
        onProgress: (@Sendable (Int64) -> Void)? = nil
    ) async throws -> (url: String, offset: Int64) {
        let endpoint = target.endpoint(in: info.dialect)
        let creation = try creationRequest(
            target: target, info: info, path: path, part: part, partial: partial, options: options,
            firstChunk: firstChunk && !partial)
        var request = creation.request
        let (inline, carried) = (creation.inline, creation.carried)
        request.maxSendBytesPerSecond = options.bandwidthLimit
        let response: HTTPResponse
        let started = ContinuousClock.now
        do {
            response = try await sendRetrying(request, onProgress: carried > 0 ? onProgress : nil)
        } catch UploadError.transfer(let error) where inline && !partial {
            // Cut on every attempt: the server may hold the whole file all the same.
            try await confirmAfterLostAnswers(path, part: part, target: target, or: .transfer(error))
            throw AlreadyStored()
        } catch UploadError.transfer(let error) where carried > 0 && !inline && error.isRetryable {
            // A link that cuts every body this long: the upload is created without one, and its chunks shrink
            // below what gets through (an upload an attempt may have created expires unused).
            return try await create(
                target: target, info: info, path: path, part: part, partial: partial, fingerprint: fingerprint,
                options: options, firstChunk: false, onProgress: onProgress)
        }
        if inline, !partial, response.status >= 500, response.status != 507 {
            // Every attempt answered with a failure: one may have been applied before its answer was lost.
            try await confirmAfterLostAnswers(
                path, part: part, target: target,
                or: Self.failure("POST", endpoint, response, destination: target.label))
            throw AlreadyStored()
        }
        if carried > 0, Self.isBodyTooLarge(response, bodyLength: carried) || (!inline && response.status == 460) {
            // The body refused: the server takes smaller ones (remembered once an upload without it is created: a
            // 400 may have meant something else), or a first chunk's bytes changed after they were hashed (the
            // upload's last check finds the file changed). The upload is created without one.
            let limit = max(ChunkSizer.floor, carried / 2)
            // A whole file refused as too large goes in chunks below that (its creation made without a body).
            if inline { bodyLimits[endpoint] = limit }
            let created = try await create(
                target: target, info: info, path: path, part: part, partial: partial, fingerprint: fingerprint,
                options: options, firstChunk: false, onProgress: onProgress)
            if !inline, response.status != 460 { bodyLimits[endpoint] = limit }
            return created
        }
        if response.status == 409, response.attempts > 1, !partial, let confirmer {
            // A creation answered with a failure was tried again, and the name is taken now: the first attempt may
            // have stored the whole file (a small one goes up inside the creation). Held as sent, it is done.
            try await confirmer.confirm(path, size: part.length, identity: nil, at: target)
            throw AlreadyStored()
        }
        guard response.status == 201 else {
            throw Self.failure("POST", endpoint, response, destination: target.label)
        }
        guard let location = response.headers["Location"], let url = Self.resolve(location, against: endpoint)
        else {
            throw UploadError.protocolViolation(request: "POST \(endpoint)", detail: "201 without a Location")
        }
        try Self.checkSameOrigin(url, as: endpoint)
        let offset = carried > 0 ? max(0, Int64(response.headers["Upload-Offset"] ?? "") ?? 0) : 0
        guard offset <= carried else {
            throw UploadError.protocolViolation(
                request: "POST \(endpoint)", detail: "Upload-Offset \(offset) after a body of \(carried)")
        }
        if offset > 0, !inline, response.attempts == 1 {
            // This upload's chunks grow from it (taken by its first PATCH loop).
            lastBodies[url] = BodyTiming(bytes: offset, seconds: Self.seconds(since: started))
        }
        return (url, offset)
    }

    /// The multipart uploader for a target whose endpoint speaks no tus, once the user was told (once per endpoint
    /// and run) that such an upload cannot resume; a target without a multipart endpoint cannot be uploaded to.
    func withoutTus(_ target: UploadTarget, onEvent: (@Sendable (TransferEvent) -> Void)?) throws(UploadError)
        -> MultipartUploader
    {
        guard target.multipartEndpoint != nil else { throw .notTus(url: target.tusEndpoint) }
        if endpoints.toldNotResumable[target.tusEndpoint] == nil {
            endpoints.toldNotResumable[target.tusEndpoint] = true
            onEvent?(.warning("the server does not offer resumable uploads: an interrupted upload starts over"))
        }
        return MultipartUploader(http: http, confirmer: confirmer)
    }

    /// A retried creation found the file already stored whole by an attempt whose answer was lost.
    struct AlreadyStored: Error {}

    /// A creation that carried the whole file and never got a clean answer: done if the destination holds the file
    /// as sent, else `failure` (nothing to confirm with: `failure` too).
    private func confirmAfterLostAnswers(
        _ path: String, part: TransferJournal.UploadPart, target: UploadTarget, or failure: UploadError
    ) async throws(UploadError) {
        guard let confirmer else { throw failure }
        do {
            try await confirmer.confirm(path, size: part.length, identity: nil, at: target)
        } catch let error where error.isNotStored {
            throw failure
        }
    }

    /// Bytes an earlier run sent were never checked as a whole (the server kept them while no one watched): the
    /// stored file's SHA-256, where the server offers one, must be the file's, else it goes again from zero.
    private func confirmResumed(
        _ record: TransferJournal.Upload, identity: FileIdentity, with confirmer: any UploadConfirming
    ) async throws {
        let outcome: Result<ContentCheck, UploadError>
        do {
            outcome = .success(
                try await confirmer.confirm(
                    record.localPath, size: record.fingerprint.size, identity: identity, at: record.target))
        } catch {
            outcome = .failure(error)
        }
        if case .failure(.storedBytesDiffer) = outcome {
            throw StartOver(
                reason:
                    "the server's copy of the resumed upload has other bytes than \(record.localPath) (its SHA-256 differs): sending it again from the start",
                fromDamage: true)
        }
        _ = try outcome.get()
    }

    /// The error of a tus request the server failed: a full server (507) is its own, the rest as answered.
    static func failure(_ method: String, _ url: String, _ response: HTTPResponse, destination: String) -> UploadError {
        if response.status == 507 { return .serverFull(destination: destination, message: response.errorMessage) }
        return .server(request: "\(method) \(url)", status: response.status, message: response.errorMessage)
    }

    // MARK: Run

    private func run(
        _ record: TransferJournal.Upload, resuming: Bool, identity: FileIdentity, info: TusServerInfo,
        options: UploadOptions,
        counter: SentCounter, onEvent: (@Sendable (TransferEvent) -> Void)?
    ) async throws -> UploadResult {
        let token = record.target.credential
        // Resuming, the server, not the journal, says how much it has; just created, creation said it (no HEAD:
        // a round trip saved per file, and some servers refuse a HEAD before the first PATCH).
        var offsets: [Int64] = []
        let dialect = record.dialect ?? .tus
        // Chunks an earlier process left with a background session finish first: the offsets read next are theirs.
        if resuming { await http.configuration.engine.settleTasks(labelled: "upload \(record.localPath) #") }
        for part in record.parts {
            guard resuming else {
                offsets.append(part.offset)
                continue
            }
            let state = try await uploadState(part.url!, token: token, dialect: dialect)
            if state.offset == part.length, state.complete == false {
                // Every byte is there, but the completing request was never taken (an IETF server that learns the
                // length only from it): an empty one completes the upload.
                try await completeEmpty(part.url!, at: state.offset, token: token, dialect: dialect)
            }
            offsets.append(state.offset)
        }
        // Bytes sent inline with the creation request are this run's, not resumed ones.
        let resumed = resuming ? offsets.reduce(0, +) : 0
        // A new upload said so before its creation (whose body may already have carried the file).
        if resuming {
            onEvent?(
                .started(
                    total: record.fingerprint.size, partSizes: record.parts.map(\.length), resumedBytes: resumed,
                    method: dialect.eventMethod, partsResumed: offsets))
        }
        let state = RecordState(record)
        let single = record.parts.count == 1
        // Whether the server answered the file's last request cleanly (204 with the full offset). A creation that
        // carried the whole file answered 201 with it; a part already complete when this run began was not seen.
        var confirmedCleanly = single && !resuming && offsets[0] == record.parts[0].length
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for (part, offset) in zip(record.parts, offsets) where offset < part.length {
                group.addTask {
                    try await send(
                        part: part, from: offset, path: record.localPath, label: record.target.label,
                        identity: single ? identity : nil,
                        info: info, token: token, options: options,
                        endpoint: record.target.endpoint(in: record.dialect ?? .tus),
                        counter: counter, state: state,
                        onEvent: onEvent)
                }
            }
            for try await clean in group { confirmedCleanly = clean }
        }
        // Every byte is on the server; what follows checks it holds the file (joined, its digest or its listing).
        if !single || (confirmer != nil && (resumed > 0 || !confirmedCleanly)) { onEvent?(.verifying) }
        var url = record.parts[0].url
        if !single {
            // The parts went up over time: the file must still be the version they were read from.
            try identity.check(record.localPath)
            url = try await concatenate(record, options: options)
        }
        if resumed > 0, let confirmer {
            try await confirmResumed(record, identity: identity, with: confirmer)
        } else if single, !confirmedCleanly, let confirmer {
            try await confirmer.confirm(
                record.localPath, size: record.fingerprint.size, identity: identity, at: record.target)
        }
        do {
            try journal?.removeUpload(key: record.key)
        } catch {
            // The file is on the server: done. A record that could not go is found complete, and confirmed, by a rerun.
            onEvent?(.warning("\(record.localPath) is uploaded, but the journal could not be updated: \(error)"))
        }
        return UploadResult(
            path: record.localPath, bytes: record.fingerprint.size, method: dialect.method, resumedBytes: resumed,
            sentBytes: counter.value, uploadURL: url)
    }

    /// PATCHes one part from `offset` to its end, following the tus error rules. Returns whether the server
    /// confirmed the end cleanly (the last PATCH answered with the full offset); false when the end was learnt from
    /// a `HEAD` after a failure or a refusal: the server then holds the bytes but may have failed to store the file,
    /// which the caller confirms another way. With `identity` (the part is the whole file), the last bytes are
    /// read into memory and sent only if the file is still that version.
    private func send(
        part: TransferJournal.UploadPart, from start: Int64, path: String, label: String, identity: FileIdentity?,
        info: TusServerInfo,
        token: BearerCredential?, options: UploadOptions, endpoint: String, counter: SentCounter, state: RecordState,
        onEvent: (@Sendable (TransferEvent) -> Void)?
    ) async throws -> Bool {
        let policy = http.configuration.retry
        let algorithm = options.checksums ? info.checksumAlgorithm : nil
        var machine = TusPatchMachine(
            offset: start, length: part.length, sizer: chunkSizer(for: part, endpoint: endpoint, options: options),
            limit: options.maxAttemptsWithoutProgress ?? policy.maxAttemptsWithoutProgress,
            checksums: algorithm != nil, finalChunkInMemory: identity != nil)
        var chunks = TusPatchChunks(
            part: part, path: path, identity: identity, algorithm: algorithm, dialect: info.dialect,
            rate: options.bandwidthLimit.map { max(1, $0 / Int64(max(1, state.partCount))) })
        defer { chunks.cancelAhead() }
        var last = PatchOutcome.none
        var action = machine.start()
        while true {
            try Task.checkCancellation()
            let event: TusPatchMachine.Event
            switch action {
            case .send(let offset, let length, let fresh):
                let rules = machine
                var (request, length) = try await chunks.request(
                    offset: offset, length: length, token: token, likely: { rules.likelyChunk(at: $0) })
                request.freshConnection = fresh
                let outcome = try await patch(
                    request, offset: offset, length: length, part: part, chunks: chunks, counter: counter,
                    onEvent: onEvent)
                event = outcome.event
                last = outcome.last
                remember(event, of: part, from: offset, endpoint: endpoint)
            case .askOffset:
                event = .offsetAnswered(try await head(part.url!, token: token, dialect: info.dialect))
            case .wait(let attempt, let reason, let retryAfter, let announced):
                let delay = policy.delay(afterAttempt: attempt, retryAfter: retryAfter)
                if announced {
                    onEvent?(.retrying(part: part.index, attempt: attempt + 1, delay: delay, reason: reason))
                }
                try await http.configuration.clock.sleep(for: .seconds(delay))
                event = .waited
            case .finish(let cleanly):
                return cleanly
            case .fail(let failure):
                throw patchFailure(failure, last: last, part: part, path: path, label: label)
            }
            let (notices, next) = machine.handle(event)
            for notice in notices {
                switch notice {
                case .confirmed(let offset):
                    state.confirm(part: part.index, offset: offset)
                    try? journal?.save(state.record)
                    onEvent?(.progress(part: part.index, done: offset))
                case .checksumMismatch(let attempt):
                    onEvent?(.retrying(part: part.index, attempt: attempt, delay: 0, reason: "checksum mismatch"))
                case .bodyLimit(let ceiling):
                    // A body limit (aiohttp's 1 MiB, Django's 2.5 MB): remembered for this server, and said.
                    bodyLimits[endpoint] = ceiling
                    onEvent?(
                        .retrying(
                            part: part.index, attempt: 1, delay: 0,
                            reason: "the server takes at most \(ByteCountFormat.string(ceiling)) per request"))
                }
            }
            action = next
        }
    }

    /// What a cancelled upload with a `record` ends as: given up on the server (`terminateOnCancel`), else paused
    /// where the same call continues (what the server confirmed, as the journal last recorded it).
    private func stopped(
        _ record: TransferJournal.Upload, key: String, path: String, size: Int64, target: UploadTarget,
        options: UploadOptions, onEvent: (@Sendable (TransferEvent) -> Void)?
    ) async -> UploadError {
        if options.terminateOnCancel {
            await terminate(record, credential: target.credential)
            return .cancelled(path: path)
        }
        let confirmed = ((try? journal?.upload(key: key)) ?? nil)?.parts.reduce(0) { $0 + $1.offset } ?? 0
        onEvent?(.paused(confirmed: confirmed, total: size))
        return .paused(path: path, confirmed: confirmed, total: size)
    }

    /// The chunk sizes of `part`: fixed (`--chunk-size`), else grown from the last body this server took (this
    /// upload's creation, taken once, else the file before's last full chunk), else from ``ChunkSizer/initial``.
    private func chunkSizer(for part: TransferJournal.UploadPart, endpoint: String, options: UploadOptions)
        -> ChunkSizer
    {
        let measured = lastBodies[part.url!] ?? lastBodies[endpoint]
        lastBodies[part.url!] = nil
        guard options.chunkSize == nil, let measured else {
            return ChunkSizer(fixed: options.chunkSize, ceiling: chunkCeiling(endpoint))
        }
        return ChunkSizer(ceiling: chunkCeiling(endpoint), after: measured)
    }

    /// The largest chunk for `endpoint`: what it is known to take, within what the engine sends safely.
    func chunkCeiling(_ endpoint: String) -> Int64? {
        [bodyLimits[endpoint], http.configuration.engine.uploadBodyPieceLimit].compactMap { $0 }.min()
    }

    /// Keeps a confirmed PATCH's timing for the next part's sizes; a part's last chunk is what was left, often a
    /// sliver: no measure of the link.
    private func remember(
        _ event: TusPatchMachine.Event, of part: TransferJournal.UploadPart, from offset: Int64, endpoint: String
    ) {
        guard case .answered(200...204, let confirmed?, _, _, let seconds, _) = event, confirmed > offset,
            confirmed < part.length
        else { return }
        lastBodies[endpoint] = BodyTiming(bytes: confirmed - offset, seconds: seconds)
    }

    /// Seconds from `start` until now, for the rate a body went at.
    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = start.duration(to: .now)
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// What the last PATCH ended with, for the words of a failure.
    enum PatchOutcome {
        case none
        case answered(HTTPResponse)
        case transport(HTTPError)
    }

    /// Sends one PATCH; what happened, as the machine takes it, and as the words of a failure need it.
    private func patch(
        _ request: HTTPRequest, offset: Int64, length: Int64, part: TransferJournal.UploadPart, chunks: TusPatchChunks,
        counter: SentCounter, onEvent: (@Sendable (TransferEvent) -> Void)?
    ) async throws -> (event: TusPatchMachine.Event, last: PatchOutcome) {
        let policy = http.configuration.retry
        let inFlight = InFlight()
        let started = ContinuousClock.now
        do {
            let response = try await http.send(
                request, retrying: false,
                onProgress: { snapshot in
                    inFlight.sent = snapshot.sent
                    onEvent?(.progress(part: part.index, done: offset + snapshot.sent))
                })
            counter.add(inFlight.sent)
            let seconds = Self.seconds(since: started)
            let event = TusPatchMachine.Event.answered(
                status: chunks.dialect.machineStatus(of: response),
                uploadOffset: response.headers["Upload-Offset"].flatMap { Int64($0) },
                sent: inFlight.sent, bodyTooLarge: Self.isBodyTooLarge(response, bodyLength: length),
                seconds: seconds, verdict: policy.verdict(for: response))
            return (event, .answered(response))
        } catch let error as HTTPError {
            counter.add(inFlight.sent)
            switch error {
            case .cancelled: throw CancellationError()
            case .localFile(let file, _) where file == chunks.path:
                // The body's own file failed (it shrank, it changed before its last bytes).
                if let identity = chunks.identity { try identity.check(chunks.path) }
                throw UploadError.transfer(error)
            default:
                return (.transportFailed(sent: inFlight.sent, verdict: policy.verdict(for: error)), .transport(error))
            }
        }
    }

    /// A part's failure in the words of the request it made.
    private func patchFailure(
        _ failure: TusPatchMachine.Failure, last: PatchOutcome, part: TransferJournal.UploadPart, path: String,
        label: String
    ) -> any Error {
        let url = part.url!
        switch (failure, last) {
        case (.lastAnswer, .answered(let response)):
            return Self.failure("PATCH", url, response, destination: label)
        case (.lastTransportError, .transport(let error)):
            return UploadError.transfer(error)
        case (.conflictsWithoutProgress, .answered(let response)):
            return UploadError.server(request: "PATCH \(url)", status: 409, message: response.errorMessage)
        case (.gaveUp(let attempts, let reason), _):
            return UploadError.transfer(.gaveUp(request: "PATCH \(url)", attempts: attempts, reason: reason))
        case (.checksumRejected(let offset), _):
            return UploadError.checksumRejected(path: path, offset: part.start + offset)
        case (.uploadGone(let status), _):
            return StartOver(reason: "the server no longer has the upload (\(status))")
        case (.protocolViolation(let detail), _):
            return UploadError.protocolViolation(request: "PATCH \(url)", detail: detail)
        default:
            return UploadError.protocolViolation(request: "PATCH \(url)", detail: "\(failure)")
        }
    }

    /// `length` bytes of `path` from `offset`, read whole (the final chunk).
    static func read(_ path: String, at offset: Int64, length: Int64) throws(UploadError) -> Data {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .localFile(path: path, message: String(cString: strerror(errno)))
        }
        defer { try? handle.close() }
        do {
            try handle.seek(toOffset: UInt64(offset))
            let data = try handle.read(upToCount: Int(length)) ?? Data()
            guard data.count == Int(length) else { throw UploadError.sourceChanged(path: path) }
            return data
        } catch let error as UploadError {
            throw error
        } catch {
            throw .localFile(path: path, message: "\(error)")
        }
    }

    /// `Upload-Metadata` as tus-js-client and Uppy send it: the target's items (`filename`, `mtime`, …), the file's
    /// MIME type as `filetype` unless given, then the caller's items, which replace any of the same key.
    /// A stream (`file` nil) has no file to name a type of.
    func metadataHeader(for target: UploadTarget, file path: String?, extra: [UploadTarget.MetadataItem]) -> String {
        UploadTarget.header(metadataItems(for: target, file: path, extra: extra))
    }

    /// What an upload says of itself: the target's items, the file's detected type unless the target names one, and
    /// the caller's own items, which win.
    func metadataItems(for target: UploadTarget, file path: String?, extra: [UploadTarget.MetadataItem])
        -> [UploadTarget.MetadataItem]
    {
        var items = target.metadata
        if !items.contains(where: { $0.key == "filetype" }), let path, let type = fileType?(path) {
            items.append(UploadTarget.MetadataItem("filetype", type))
        }
        for item in extra {
            items.removeAll { $0.key == item.key }
            items.append(item)
        }
        return items
    }

    /// A request body the server may have refused for its size: a 413, or a 400 to a body above the chunk floor.
    /// Stock servers rarely say more: Django answers `RequestDataTooBig` (2.5 MB) with a bare HTML "Bad Request
    /// (400)" page, so the cause is never read from the text. Halving costs a little when the 400 meant something
    /// else (the floor is reached in a few steps and the server's answer is reported there); bodies at or below the
    /// floor are never retried this way.
    static func isBodyTooLarge(_ response: HTTPResponse, bodyLength: Int64) -> Bool {
        (response.status == 413 || response.status == 400) && bodyLength > ChunkSizer.floor
    }

    /// Joins complete partial uploads into the final file (concatenation extension).
    private func concatenate(_ record: TransferJournal.Upload, options: UploadOptions) async throws -> String {
        let target = record.target
        var request = HTTPRequest(
            method: "POST", url: target.tusEndpoint, credential: target.credential, isIdempotent: false)
        request.headers.add("Tus-Resumable", "1.0.0")
        request.headers.add("Upload-Concat", "final;" + record.parts.map { $0.url! }.joined(separator: " "))
        request.headers.add(
            "Upload-Metadata", metadataHeader(for: target, file: record.localPath, extra: options.metadata))
        let response = try await sendRetrying(request)
        guard response.status == 201 else {
            if response.attempts > 1, [400, 404, 409, 410].contains(response.status), let confirmer {
                // A join answered with a failure was tried again and its parts are gone or the name taken: the first
                // join may have made the file. Held as sent, it is done.
                try await confirmer.confirm(record.localPath, size: record.fingerprint.size, identity: nil, at: target)
                return target.tusEndpoint
            }
            if response.status == 404 || response.status == 410 {
                throw StartOver(reason: "a part expired before the parts were joined")
            }
            throw Self.failure("POST", target.tusEndpoint + " (final)", response, destination: target.label)
        }
        let url =
            response.headers["Location"].flatMap { Self.resolve($0, against: target.tusEndpoint) } ?? target.tusEndpoint
        try Self.checkSameOrigin(url, as: target.tusEndpoint)
        return url
    }

    /// An upload lives on the server it was created on: a `Location` on another origin (scheme, host, port) would
    /// send the file's bytes, and the token, somewhere the user never named. Refused before any request goes there.
    static func checkSameOrigin(_ url: String, as endpoint: String) throws(UploadError) {
        guard let origin = URLOrigin(url: url), origin == URLOrigin(url: endpoint) else {
            throw .protocolViolation(
                request: "POST \(URLRedaction.redacted(endpoint))",
                detail:
                    "the server put the upload on another server (\(URLRedaction.redacted(url))); refused, nothing was sent there"
            )
        }
    }

    // MARK: Requests

    /// OPTIONS: the server's tus capabilities, or nil when it does not speak tus; asked once per endpoint.
    package func discover(_ target: UploadTarget) async throws -> TusServerInfo? {
        try await discovered.value(for: target.tusEndpoint) { try await self.askServer(target) }
    }

    /// The resumable form an upload to `target` takes: the one `options` prefer of those its endpoints offer (tus
    /// first unless the IETF form is asked for), or the other when only that is offered; nil when neither is.
    /// An upload of `path` journaled in the IETF form is continued in it, whatever this run prefers.
    func resumableForm(of target: UploadTarget, path: String, options: UploadOptions) async throws -> TusServerInfo? {
        let journaledIETF =
            target.resumableEndpoint != nil
            && ((try? journal?.upload(
                key: TransferJournal.uploadKey(path: path, target: target, dialect: .ietf(version: 6)))) ?? nil) != nil
        let ietfFirst = options.resumableForm == .ietf || journaledIETF
        if !ietfFirst, let tus = try await discover(target) { return tus }
        if let ietf = try await discoverIETF(target, version: options.ietfInteropVersion) { return ietf }
        return ietfFirst ? try await discover(target) : nil
    }

    /// What the target's IETF endpoint says when asked in interop `version`, or, when it refuses that version (400),
    /// in the others this client speaks, newest first (a server of an older system's draft); nil when it has none or
    /// does not speak the form (a 404: not offered).
    private func discoverIETF(_ target: UploadTarget, version: Int) async throws -> TusServerInfo? {
        guard let endpoint = target.resumableEndpoint else { return nil }
        return try await discovered.value(for: endpoint + "#" + String(version)) {
            for asked in [version] + UploadDialect.ietfVersions.filter({ $0 != version }) {
                let answer = try await self.optionsAnswer(endpoint, .ietf(version: asked), target.credential)
                if answer.isSuccess { return TusServerInfo(ietfHeaders: answer.headers) }
                guard answer.status == 400 else { return nil }
            }
            return nil
        }
    }

    private func askServer(_ target: UploadTarget) async throws -> TusServerInfo? {
        try await askOptions(target.tusEndpoint, .tus, credential: target.credential).map {
            TusServerInfo(headers: $0)
        } ?? nil
    }

    /// OPTIONS in `dialect`: the answer's headers when it succeeded, nil when the endpoint is not there (not
    /// offered); a refusal of the token is an error, not "not offered".
    private func askOptions(_ endpoint: String, _ dialect: UploadDialect, credential: BearerCredential?)
        async throws -> HTTPHeaders?
    {
        let answer = try await optionsAnswer(endpoint, dialect, credential)
        return answer.isSuccess ? answer.headers : nil
    }

    /// The OPTIONS answer in `dialect`; a refusal of the token is an error.
    private func optionsAnswer(_ endpoint: String, _ dialect: UploadDialect, _ credential: BearerCredential?)
        async throws -> HTTPResponse
    {
        var request = HTTPRequest(method: "OPTIONS", url: endpoint, credential: credential)
        dialect.mark(&request)
        let response: HTTPResponse
        do {
            response = try await http.send(request)
        } catch let error as HTTPError {
            throw UploadError.transfer(error)
        }
        if response.status == 401 || response.status == 403 {
            throw UploadError.server(
                request: "OPTIONS \(endpoint)", status: response.status, message: response.errorMessage)
        }
        return response
    }

    /// HEAD: the server's offset, in the one retry loop (a request's attempts, each sent once: no loop of the
    /// client's inside). Only 404/410 mean "start over", never a 5xx; a failure waiting cannot mend (a certificate,
    /// a refusal) ends it at once.
    func head(_ url: String, token: BearerCredential?, dialect: UploadDialect = .tus) async throws -> Int64 {
        try await uploadState(url, token: token, dialect: dialect).offset
    }

    /// HEAD: the server's offset and, in the IETF form, whether it calls the upload complete (nil: not said, tus).
    func uploadState(_ url: String, token: BearerCredential?, dialect: UploadDialect) async throws -> (
        offset: Int64, complete: Bool?
    ) {
        var request = HTTPRequest(method: "HEAD", url: url, credential: token)
        dialect.mark(&request)
        let policy = http.configuration.retry
        let loop = RetryLoop(request: policy, clock: http.configuration.clock)
        return try await loop.run { () async throws -> RetryStep<(offset: Int64, complete: Bool?)> in
            let response: HTTPResponse
            do {
                response = try await http.send(request, retrying: false)
            } catch let error as HTTPError {
                if case .cancelled = error { throw CancellationError() }
                let reason = error.reason
                guard
                    let step = RetryStep<(offset: Int64, complete: Bool?)>.after(
                        policy.verdict(for: error),
                        otherwise: { attempts in
                            throw UploadError.transfer(
                                .gaveUp(request: "HEAD \(url)", attempts: attempts, reason: reason))
                        })
                else { throw UploadError.transfer(error) }
                return step
            }
            if response.status == 404 || response.status == 410 {
                throw StartOver(reason: "the server no longer has the upload (\(response.status))")
            }
            if response.isSuccess {
                guard let offset = response.headers["Upload-Offset"].flatMap({ Int64($0) }) else {
                    throw UploadError.protocolViolation(request: "HEAD \(url)", detail: "no Upload-Offset")
                }
                return .done((offset, dialect.saysComplete(response.headers)))
            }
            let refused = UploadError.server(
                request: "HEAD \(url)", status: response.status, message: response.errorMessage)
            guard
                let step = RetryStep<(offset: Int64, complete: Bool?)>.after(
                    policy.verdict(for: response),
                    otherwise: { attempts in
                        throw UploadError.transfer(
                            .gaveUp(request: "HEAD \(url)", attempts: attempts, reason: "HTTP \(response.status)"))
                    })
            else { throw refused }
            return step
        }
    }

    /// An empty append that says the upload is complete (IETF form), for an upload whose bytes are all there.
    private func completeEmpty(_ url: String, at offset: Int64, token: BearerCredential?, dialect: UploadDialect)
        async throws
    {
        var request = HTTPRequest(method: "PATCH", url: url, credential: token, isIdempotent: false)
        dialect.mark(&request)
        request.headers.add("Upload-Offset", String(offset))
        dialect.markCompletion(&request, complete: true)
        request.body = .data(Data(), contentType: dialect.appendContentType)
        let response: HTTPResponse
        do { response = try await http.send(request) } catch let error as HTTPError {
            throw UploadError.transfer(error)
        }
        guard response.isSuccess || dialect.machineStatus(of: response) == 403 else {
            throw Self.failure("PATCH", url, response, destination: url)
        }
    }

    /// Sends a creation (`POST`) in the one retry loop: network failures and the statuses that mean "later" wait
    /// the backoff (`Retry-After` honoured). A repeated creation that the server had already made leaves at most an
    /// upload nobody continues, which the server expires; one that had already stored a small file whole answers
    /// 409, which the caller checks. The answer's `attempts` counts the tries; the last answer is returned as it is.
    func sendRetrying(_ request: HTTPRequest, onProgress: (@Sendable (Int64) -> Void)? = nil) async throws
        -> HTTPResponse
    {
        let policy = http.configuration.retry
        let loop = RetryLoop(request: policy, clock: http.configuration.clock)
        let reportSent: (@Sendable (TransferProgress) -> Void)? = onProgress.map { report in
            { @Sendable progress in report(progress.sent) }
        }
        return try await loop.run { () async throws -> RetryStep<HTTPResponse> in
            var response: HTTPResponse
            do {
                response = try await http.send(request, retrying: false, onProgress: reportSent)
            } catch let error as HTTPError {
                if case .cancelled = error { throw CancellationError() }
                guard
                    let step = RetryStep<HTTPResponse>.after(
                        policy.verdict(for: error), otherwise: { _ in throw UploadError.transfer(error) })
                else { throw UploadError.transfer(error) }
                return step
            }
            response.attempts = loop.attempt
            let answer = response
            return .after(policy.verdict(for: answer)) { _ in answer } ?? .done(answer)
        }
    }

    /// Removes an unfinished upload: DELETE of every part (termination; failures ignored), then the journal record.
    package func terminate(_ record: TransferJournal.Upload, credential token: BearerCredential?) async {
        let http = http
        await Task.detached {
            for url in record.parts.compactMap(\.url) {
                var request = HTTPRequest(method: "DELETE", url: url, credential: token)
                (record.dialect ?? .tus).mark(&request)
                _ = try? await http.send(request)
            }
        }.value
        try? journal?.removeUpload(key: record.key)
    }

    /// `Upload-Checksum` of `length` bytes of `path` from `offset`.
    static func checksumHeader(_ algorithm: String, path: String, offset: Int64, length: Int64) throws -> String {
        try Self.checksumHeader(algorithm) { hasher throws(UploadError) in
            do throws(HTTPError) {
                try hasher.update(file: path, offset: offset, length: length)
            } catch {
                throw .localFile(path: path, message: error.detailWithoutPath)
            }
        }
    }

    static func checksumHeader(_ algorithm: String, data: Data) -> String {
        checksumHeader(algorithm) { $0.update(data) }
    }

    /// `Upload-Checksum`: the algorithm's name and the base64 digest of what `feed` gives the hasher.
    private static func checksumHeader<E: Error>(_ algorithm: String, _ feed: (SHA256Hasher) throws(E) -> Void)
        throws(E) -> String
    {
        let hasher = SHA256Hasher(sha1: algorithm == "sha1")
        try feed(hasher)
        return checksumHeader(algorithm, digest: hasher.finalize())
    }

    /// `Upload-Checksum` of a digest computed elsewhere.
    static func checksumHeader(_ algorithm: String, digest: [UInt8]) -> String {
        algorithm + " " + Data(digest).base64EncodedString()
    }

    static func resolve(_ location: String, against base: String) -> String? {
        URL(string: location, relativeTo: URL(string: base))?.absoluteString
    }
}

/// Bytes sent in this run, across parts and attempts.
final class SentCounter: Sendable {
    private let total = LockedValue<Int64>(0)
    func add(_ bytes: Int64) { total.withLock { $0 += bytes } }
    var value: Int64 { total.current }
}

/// The bytes of the request in flight, as the engine reports them.
final class InFlight: Sendable {
    private let bytes = LockedValue<Int64>(0)
    var sent: Int64 {
        get { bytes.current }
        set { bytes.withLock { $0 = newValue } }
    }
}

/// The journal record of a running upload, updated by its parts.
final class RecordState: Sendable {
    private let current: LockedValue<TransferJournal.Upload>
    init(_ record: TransferJournal.Upload) { current = LockedValue(record) }
    var record: TransferJournal.Upload { current.current }
    var partCount: Int { current.withLock { $0.parts.count } }
    func confirm(part: Int, offset: Int64) { current.withLock { $0.parts[part].offset = offset } }
}
