import FileModel
import Foundation
import HTTP
import Journal

/// The default ``Downloading``: ranges fetched in parallel into a preallocated temp file, every range's
/// progress journaled, every answer checked against what was asked, and the final name reached only by
/// an atomic rename after the length (and checksum) is verified.
package struct SegmentedDownloader: Downloading {
    /// The transport; its retry policy sets the delays between a range's attempts.
    package var http: HTTPClient
    /// Where progress is recorded for resuming; nil keeps nothing (no resume across runs).
    package var journal: TransferJournal?
    /// How often the live offsets are written to the journal, in seconds.
    package var journalInterval = 0.005
    /// How often the temp file is flushed to stable storage, in seconds.
    package var syncInterval = 1.0
    /// How each range asks for the version it started with.
    package var rangeCondition = RangeCondition.ifRange
    /// The remote whose keys sign the requests, kept with each journaled download so a resume uses them.
    package var sourceName: String?

    /// How a range request names the version of the file it continues.
    package enum RangeCondition: Sendable {
        /// `If-Range`: a changed file answers 200 with all of it, which is refused and restarts the download.
        case ifRange
        /// `If-Match` with the ETag (else `If-Unmodified-Since`): a changed file answers 412, which restarts the
        /// download. For servers that ignore `If-Range` (OpenStack Swift's S3 layer) and would splice versions.
        case ifMatch
    }

    /// Creates a downloader.
    package init(http: HTTPClient, journal: TransferJournal?) {
        self.http = http
        self.journal = journal
    }

    private struct Restart: Error {
        var reason: String
        /// The server's file changed (a new version); otherwise its answers simply did not fit what was asked.
        var changed = true
        /// Found only after the last byte: the file was edited while it streamed.
        var afterLastByte = false
    }

    /// Downloads `url` to `destination` (resumable from the journal, in parallel ranges where the server serves them, checked, then renamed into place); `onEvent` hears its progress.
    package func download(
        from url: String, credential: BearerCredential?, to destination: String,
        options given: DownloadOptions = DownloadOptions(),
        onEvent: (@Sendable (TransferEvent) -> Void)? = nil
    ) async throws(DownloadError) -> DownloadResult {
        var options = given
        let partial = try PartialFile.claim(for: destination, force: options.force)
        let destination = partial.destination
        var restarts = 0
        var editedWhileStreaming = 0
        while true {
            do {
                return try await attempt(
                    url: url, token: credential, partial: partial, options: options, fresh: restarts > 0,
                    onEvent: onEvent)
            } catch let restart as Restart {
                restarts += 1
                if restart.afterLastByte { editedWhileStreaming += 1 }
                // A file being written to as it is read would be fetched forever: once, then a clear failure.
                if restarts > 2 || editedWhileStreaming > 1 {
                    partial.discard()
                    try? journal?.remove(destination: destination)
                    throw restart.changed
                        ? .unstable(url: URLRedaction.redacted(url))
                        : .unexpectedAnswer(url: URLRedaction.redacted(url), reason: restart.reason)
                }
                onEvent?(.restarted(reason: restart.reason))
                if restart.changed, let refresh = options.refreshOnChange { options = await refresh(options) }
            } catch {
                // Without a journal record the temp file cannot be resumed from: leave nothing behind. A journal
                // that cannot be read tells nothing either way, so the bytes stay for a rerun to judge.
                var recorded = false
                if let journal {
                    do { recorded = try journal.download(for: destination) != nil } catch { recorded = true }
                }
                if !recorded { partial.discard() }
                switch error {
                case let error as DownloadError: throw error
                case is CancellationError: throw .transfer(.cancelled(request: "GET \(url)"))
                default: throw .localFile(path: destination, message: "\(error)")
                }
            }
        }
    }

    // MARK: One attempt of the whole file

    private func attempt(
        url: String, token: BearerCredential?, partial: PartialFile, options: DownloadOptions, fresh: Bool,
        onEvent: (@Sendable (TransferEvent) -> Void)?
    ) async throws -> DownloadResult {
        if let known = options.knownLength, known <= DownloadOptions.smallFileLimit,
            try journalCall({ () throws(SQLiteError) in try journal?.download(for: partial.destination) }) == nil
        {
            try partial.reset(length: nil)
            return try await singleStream(
                url: url, token: token, partial: partial, info: nil, options: options, onEvent: onEvent)
        }
        var info: RemoteFileInfo?
        if options.knownServesRanges, let total = options.knownLength, let etag = options.knownETag,
            !etag.hasPrefix("W/")
        {
            // What the caller's HEAD or listing said: the version every range is then held to (If-Match / If-Range).
            info = RemoteFileInfo(total: total, etag: etag, lastModified: nil, acceptsRanges: true)
        } else {
            info = try await probe(url: url, token: token)
        }
        if let known = info, !known.acceptsRanges, let total = known.total, total > 0, known.rangeValidator != nil {
            info?.acceptsRanges = await servesRanges(url: url, credential: token, acceptRanges: known.acceptRanges)
        }
        let destination = partial.destination
        var segments: [TransferJournal.Segment]
        var resumed: Int64 = 0
        let saved = fresh ? nil : try journalCall { () throws(SQLiteError) in try journal?.download(for: destination) }
        if let saved, let info, canResume(saved, info: info, partialSize: partial.size, url: url) {
            let sameBoot = saved.bootID == TransferJournal.currentBootID
            segments = saved.segments.map { segment in
                var segment = segment
                // After a reboot only flushed bytes are trusted; after a crashed process the page cache holds the rest.
                segment.done = sameBoot ? segment.done : segment.synced
                // A range can never have more done than the file holds (a growing single range).
                segment.done = min(segment.done, max(0, partial.size - segment.start))
                segment.synced = min(segment.synced, segment.done)
                return segment
            }
            resumed = segments.reduce(0) { $0 + $1.done }
            if resumed > 0, info.etag.map({ $0.hasPrefix("W/") }) ?? true {
                try await checkOverlaps(segments, url: url, token: token, partial: partial, info: info)
            }
            try journalCall { () throws(SQLiteError) in try journal?.claimBoot(destination: destination) }
        } else if let info, info.isResumable, let total = info.total {
            let count = options.segmentCount(total: total)
            segments = (0..<count).map { index in
                let start = total * Int64(index) / Int64(count)
                let end = total * Int64(index + 1) / Int64(count) - 1
                return TransferJournal.Segment(index: index, start: start, end: end, done: 0, synced: 0)
            }
            // Parallel ranges land in place in a preallocated file; a single range just grows it.
            try partial.reset(length: count > 1 ? total : nil)
            let record = TransferJournal.Download(
                destination: destination, url: url, tempPath: partial.path, etag: info.etag,
                lastModified: info.lastModified,
                total: total, bootID: TransferJournal.currentBootID, segments: segments, source: sourceName)
            try journalCall { () throws(SQLiteError) in try journal?.save(record) }
        } else {
            // No ranges, no length or no validator: one stream from the start, not resumable. It is journaled
            // without ranges all the same, so that a killed run's temp file is listed and cleaned like any other.
            let record = TransferJournal.Download(
                destination: destination, url: url, tempPath: partial.path, etag: info?.etag,
                lastModified: info?.lastModified,
                total: info?.total, bootID: TransferJournal.currentBootID, segments: [], source: sourceName)
            try journalCall { () throws(SQLiteError) in try journal?.save(record) }
            try partial.reset(length: nil)
            do {
                let result = try await singleStream(
                    url: url, token: token, partial: partial, info: info, options: options, onEvent: onEvent)
                forgetFinished(destination, onEvent: onEvent)
                return result
            } catch {
                // Nothing to resume from: without its record, `download` drops the bytes too.
                try? journal?.remove(destination: destination)
                throw error
            }
        }
        let total = info!.total!
        onEvent?(
            .started(
                total: total, partSizes: segments.map { $0.end - $0.start + 1 }, resumedBytes: resumed, method: .ranges,
                partsResumed: segments.map(\.done)))
        let progress = SegmentProgress(segments)
        let plan = segments
        let rangeInfo = info!
        let rate = options.bandwidthLimit.map { $0 / Int64(max(1, plan.count)) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            let journalTask = Task { await journalLoop(progress, partial: partial) }
            defer { journalTask.cancel() }
            for segment in plan where segment.done < segment.length {
                group.addTask {
                    try await fetch(
                        segment: segment.index, url: url, token: token, partial: partial, info: rangeInfo,
                        progress: progress,
                        rate: rate, options: options, onEvent: onEvent)
                }
            }
            do {
                try await group.waitForAll()
            } catch {
                group.cancelAll()
                journalTask.cancel()
                await journalTask.value
                try? flushJournal(progress, partial: partial, sync: false)
                throw error
            }
            journalTask.cancel()
            await journalTask.value
        }
        let written = progress.snapshot.reduce(0) { $0 + $1.done }
        guard written == total, partial.size == total else {
            throw DownloadError.lengthMismatch(path: destination, expected: total, actual: written)
        }
        let (digest, check) = try await verifyAndCheckStillSame(
            partial: partial, options: options, url: url, token: token, as: rangeInfo)
        try partial.commit(
            force: options.force, modificationTime: options.settledModificationTime(lastModified: info?.lastModified))
        forgetFinished(destination, onEvent: onEvent)
        var result = DownloadResult(
            path: destination, bytes: total, resumedBytes: resumed, fetchedBytes: progress.fetchedBytes, sha256: digest,
            etag: info?.etag.flatMap { $0.hasPrefix("W/") ? nil : $0 })
        result.checkedBy = check
        return result
    }

    private func canResume(_ saved: TransferJournal.Download, info: RemoteFileInfo, partialSize: Int64, url: String)
        -> Bool
    {
        guard saved.url == url, info.isResumable, saved.total == info.total, !saved.segments.isEmpty,
            saved.segments.allSatisfy({ $0.start + $0.synced <= partialSize })
        else { return false }
        // The same version of the file: a strong ETag if the server has one, else Last-Modified.
        if let etag = info.etag, !etag.hasPrefix("W/") { return saved.etag == etag }
        return saved.lastModified != nil && saved.lastModified == info.lastModified
    }

    /// Bytes re-fetched before each resume point when only Last-Modified vouches for the file's version.
    static let overlapLength: Int64 = 64 << 10

    /// Last-Modified has whole seconds: a file replaced within the same second by one of the same length passes
    /// `If-Range`, and resuming would splice two versions (as `curl -C -`, `wget -c` and aria2 do). Without a
    /// strong ETag, the bytes just before each resume point are fetched again and compared with the disk; any
    /// difference starts the file over.
    private func checkOverlaps(
        _ segments: [TransferJournal.Segment], url: String, token: BearerCredential?, partial: PartialFile,
        info: RemoteFileInfo
    ) async throws {
        for segment in segments where segment.done > 0 {
            let length = min(segment.done, Self.overlapLength)
            let from = segment.start + segment.done - length
            var request = HTTPRequest(
                url: url, sink: .memory(limit: Int(length) + 1024), credential: token, redirects: .anyOrigin)
            request.headers.add("Range", "bytes=\(from)-\(from + length - 1)")
            addCondition(&request, info: info)
            let response: HTTPResponse
            do {
                response = try await http.send(request)
            } catch let error as HTTPError {
                throw DownloadError.transfer(error)
            }
            guard response.status == 206, Int64(response.body.count) == length else {
                throw Restart(reason: "the server's file changed (it no longer serves the same range)")
            }
            guard try partial.read(offset: from, length: Int(length)) == response.body else {
                throw Restart(
                    reason:
                        "the server's file changed: the bytes before byte \(from + length) differ from those on disk")
            }
        }
    }

    /// After the last byte and before the final name, the server is asked again for the file's version: a server
    /// reads a file as it sends it, so an edit while the last (or only) range streamed gives early bytes of one
    /// version and late bytes of another, which no `If-Range` sees. Any validator it gives counts (ETag, size,
    /// Last-Modified); a difference restarts the download.
    private func checkStillSame(url: String, token: BearerCredential?, as first: RemoteFileInfo) async throws {
        // An object store replaces an object whole, and every range asked `If-Match` its strong ETag: all the
        // bytes are of that one version already, and a second HEAD would only cost a request per object.
        if rangeCondition == .ifMatch, let etag = first.etag, !etag.hasPrefix("W/") { return }
        guard let now = try await probe(url: url, token: token) else { return }  // no HEAD: nothing more to ask
        let differs =
            (first.etag != nil && now.etag != nil && first.etag != now.etag)
            || (first.lastModified != nil && now.lastModified != nil && first.lastModified != now.lastModified)
            || (first.total != nil && now.total != nil && first.total != now.total)
        if differs {
            throw Restart(reason: "the file changed on the server while it was being downloaded", afterLastByte: true)
        }
    }

    /// The bytes on disk are the server's current version of the file, and the one expected: the server asked
    /// again for the version (``checkStillSame(url:token:as:)``: bytes that match an older version's checksum are
    /// whole, but not the file the server holds now), then checked by ``ContentVerification`` against the strongest
    /// validator there is (the checksum given or asked while the bytes came, ``DownloadOptions/pendingChecksum``,
    /// else the one the answer's headers carry). Returns the SHA-256 where that was the check, and the check.
    func verifyAndCheckStillSame(
        partial: PartialFile, options: DownloadOptions, url: String, token: BearerCredential?,
        as first: RemoteFileInfo, headers: HTTPHeaders? = nil
    ) async throws -> (sha256: String?, check: ContentCheck) {
        try await checkStillSame(url: url, token: token, as: first)
        return try verify(partial: partial, expected: await options.expectedChecksum(headers: headers ?? first.headers))
    }

    /// The bytes on disk against the checksum the options give, if any; a mismatch drops them.
    func verify(partial: PartialFile, options: DownloadOptions, headers: HTTPHeaders?) async throws -> (
        sha256: String?, check: ContentCheck
    ) {
        try verify(partial: partial, expected: await options.expectedChecksum(headers: headers))
    }

    private func verify(partial: PartialFile, expected: Checksum?) throws -> (sha256: String?, check: ContentCheck) {
        let (verdict, sha256) = try ContentVerification.check(file: partial.path, against: expected)
        switch verdict {
        case .success(let check): return (sha256, check)
        case .failure(let mismatch):
            partial.discard()
            try? journal?.remove(destination: partial.destination)
            throw DownloadError.checksumMismatch(
                path: partial.destination, expected: mismatch.expected.description, actual: mismatch.actual)
        }
    }

    // MARK: The server's view

    private func probe(url: String, token: BearerCredential?) async throws -> RemoteFileInfo? {
        let response: HTTPResponse
        do {
            response = try await http.send(
                HTTPRequest(method: "HEAD", url: url, credential: token, redirects: .anyOrigin))
        } catch let error as HTTPError {
            throw DownloadError.transfer(error)
        }
        if [405, 501].contains(response.status) { return nil }  // no HEAD: fall back to one plain GET
        guard response.isSuccess else {
            // A HEAD answer has no body to explain itself; one tiny GET fetches the server's message.
            var request = HTTPRequest(
                url: url, sink: .memory(limit: 64 << 10), credential: token, redirects: .anyOrigin)
            request.headers.add("Range", "bytes=0-0")
            let explained = try? await http.send(request)
            throw serverError(url: url, response: explained.flatMap { $0.isSuccess ? nil : $0 } ?? response)
        }
        return RemoteFileInfo(headers: response.headers)
    }

    /// Whether `url` serves byte ranges, the one rule every ranged reader asks: `acceptRanges` (a HEAD's
    /// `Accept-Ranges`) naming `bytes`, else, where the server does not say (OpenStack Swift's S3 layer sends none),
    /// a 206 to a one-byte range; `none` is a no.
    package func servesRanges(url: String, credential: BearerCredential?, acceptRanges: String?) async -> Bool {
        let said = acceptRanges?.lowercased()
        if said?.contains("bytes") == true { return true }
        if said == "none" { return false }
        var request = HTTPRequest(url: url, sink: .memory(limit: 64), credential: credential, redirects: .anyOrigin)
        request.headers.add("Range", "bytes=0-0")
        guard let response = try? await http.send(request), response.status == 206,
            response.headers["Content-Range"].flatMap(HTTPHeaders.parseContentRange)?.range == 0...0
        else { return false }
        return true
    }

    private func serverError(url: String, response: HTTPResponse) -> DownloadError {
        .server(url: URLRedaction.redacted(url), status: response.status, message: response.errorMessage)
    }

    /// Adds the condition that keeps a range to the version the download started with.
    func addCondition(_ request: inout HTTPRequest, info: RemoteFileInfo) {
        switch rangeCondition {
        case .ifRange:
            if let validator = info.rangeValidator { request.headers.add("If-Range", validator) }
        case .ifMatch:
            if let etag = info.etag, !etag.hasPrefix("W/") {
                request.headers.add("If-Match", etag)
            } else if let lastModified = info.lastModified {
                request.headers.add("If-Unmodified-Since", lastModified)
            }
        }
    }

    // MARK: One range

    private func fetch(
        segment index: Int, url: String, token: BearerCredential?, partial: PartialFile, info: RemoteFileInfo,
        progress: SegmentProgress, rate: Int64?, options: DownloadOptions, onEvent: (@Sendable (TransferEvent) -> Void)?
    ) async throws {
        let segment = progress.snapshot[index]
        let total = info.total!
        let policy = http.configuration.retry
        let loop = RetryLoop(
            transfer: policy, limit: options.maxAttemptsWithoutProgress, clock: http.configuration.clock
        ) { attempt, delay, reason in
            onEvent?(.retrying(part: index, attempt: attempt, delay: delay, reason: reason))
        }
        try await loop.run { () async throws -> RetryStep<Void> in
            guard progress.done(index) < segment.length else { return .done(()) }
            let base = progress.done(index)
            let offset = segment.start + base
            var request = HTTPRequest(
                url: url, sink: .file(path: partial.path, offset: offset), credential: token, redirects: .anyOrigin)
            request.headers.add("Range", "bytes=\(offset)-\(segment.end)")
            addCondition(&request, info: info)
            request.maxReceiveBytesPerSecond = rate
            let expected = offset...segment.end
            request.responseCheck = { status, headers in
                switch status {
                case 206:
                    guard let value = headers["Content-Range"], let parsed = HTTPHeaders.parseContentRange(value),
                        parsed.range == expected, parsed.total == total
                    else {
                        return
                            "Content-Range \(headers["Content-Range"] ?? "missing") is not bytes \(expected.lowerBound)-\(expected.upperBound)/\(total)"
                    }
                    return nil
                case 200: return "the whole file instead of a range: it changed on the server, or Range is ignored"
                default: return nil
                }
            }
            let verdict: RetryVerdict
            let lastFailure: DownloadError
            do {
                let response = try await http.send(
                    request, retrying: false,
                    onProgress: { snapshot in
                        progress.setDone(index, base + snapshot.written)
                        onEvent?(.progress(part: index, done: base + snapshot.written))
                    })
                progress.addFetched(response.bytesWritten)
                if response.status == 206 {
                    progress.setDone(index, base + response.bytesWritten)
                    onEvent?(.progress(part: index, done: base + response.bytesWritten))
                    loop.progressed()
                    return .next
                }
                if response.status == 412 {
                    throw Restart(
                        reason: "the file changed on the server (its ETag is no longer \(info.etag ?? "the same"))")
                }
                if response.status == 416 {
                    // Our range starts inside the length we were promised; a 416 means the file is shorter now.
                    let announced = response.headers["Content-Range"].flatMap(HTTPHeaders.parseContentRange)?.total
                    throw Restart(
                        reason:
                            "the server's file is now \(announced.map(String.init) ?? "of unknown") bytes, not \(total)"
                    )
                }
                verdict = policy.verdict(for: response)
                lastFailure = serverError(url: url, response: response)
            } catch let error as HTTPError {
                switch error {
                case .rejected(_, let status, let why): throw Restart(reason: why, changed: status == 200)
                case .cancelled: throw CancellationError()
                default:
                    verdict = policy.verdict(for: error)
                    lastFailure = .transfer(error)
                }
            }
            guard let step = RetryStep<Void>.after(verdict, otherwise: { _ in throw lastFailure }) else {
                throw lastFailure
            }
            // The bytes a failed attempt stored are kept and were fetched: they count in the rate.
            progress.addFetched(max(0, progress.done(index) - base))
            // A failed attempt that moved forward resets the count: slow progress is still progress.
            if progress.done(index) > base { loop.progressed() }
            return step
        }
    }

    // MARK: No ranges

    private func singleStream(
        url: String, token: BearerCredential?, partial: PartialFile, info: RemoteFileInfo?, options: DownloadOptions,
        onEvent: (@Sendable (TransferEvent) -> Void)?
    ) async throws -> DownloadResult {
        onEvent?(
            .started(total: info?.total, partSizes: info?.total.map { [$0] } ?? [], resumedBytes: 0, method: .stream))
        var request = HTTPRequest(
            url: url, sink: .file(path: partial.path, offset: nil), credential: token, redirects: .anyOrigin)
        request.maxReceiveBytesPerSecond = options.bandwidthLimit
        // What the listing or HEAD said bounds the body: an endless answer stops at the first byte beyond it.
        let expected = options.knownLength ?? info?.total
        request.expectedLength = expected
        request.responseCheck = { status, _ in status == 206 ? "a range that was not asked for" : nil }
        let response: HTTPResponse
        do {
            response = try await http.send(request, onProgress: { onEvent?(.progress(part: 0, done: $0.written)) })
        } catch let error as HTTPError {
            if case .cancelled = error { throw CancellationError() }
            throw DownloadError.transfer(error)
        }
        guard response.isSuccess else { throw serverError(url: url, response: response) }
        let announced = expected ?? response.headers["Content-Length"].flatMap { Int64($0) }
        if let announced, announced != response.bytesWritten || partial.size != announced {
            throw DownloadError.lengthMismatch(
                path: partial.destination, expected: announced, actual: response.bytesWritten)
        }
        let (digest, check) = try await verifyAndCheckStillSame(
            partial: partial, options: options, url: url, token: token,
            as: info ?? RemoteFileInfo(headers: response.headers), headers: response.headers)
        try partial.commit(
            force: options.force,
            modificationTime: options.settledModificationTime(lastModified: response.headers["Last-Modified"]))
        var result = DownloadResult(
            path: partial.destination, bytes: response.bytesWritten, resumedBytes: 0,
            fetchedBytes: response.bytesWritten,
            sha256: digest, etag: response.headers["ETag"].flatMap { $0.hasPrefix("W/") ? nil : $0 })
        result.checkedBy = check
        result.responseHeaders = response.headers
        return result
    }

    // MARK: Journal

    private func journalLoop(_ progress: SegmentProgress, partial: PartialFile) async {
        guard journal != nil else { return }
        var lastSync = Date()
        var last = progress.snapshot.map(\.done)
        while !Task.isCancelled {
            try? await Task.sleep(nanoseconds: UInt64(journalInterval * 1e9))
            let sync = Date().timeIntervalSince(lastSync) >= syncInterval
            let current = progress.snapshot.map(\.done)
            if sync || current != last {
                try? flushJournal(progress, partial: partial, sync: sync)
                last = current
                if sync { lastSync = Date() }
            }
        }
        try? flushJournal(progress, partial: partial, sync: true)
    }

    /// Writes live offsets; with `sync`, flushes the file first and records those offsets as durable too.
    private func flushJournal(_ progress: SegmentProgress, partial: PartialFile, sync: Bool) throws {
        guard let journal else { return }
        let before = progress.snapshot
        if sync {
            try partial.sync()
            progress.markSynced(before.map(\.done))
        }
        try journal.updateProgress(
            destination: partial.destination,
            before.map { (index: $0.index, done: $0.done, synced: sync ? $0.done : nil) })
    }

    /// Forgets a download that is in place under its final name. A journal that cannot be written then (its disk
    /// full) does not undo the download: it is told as a warning, and the record left behind names a temp file
    /// that no longer exists, which is how it is known as finished.
    private func forgetFinished(_ destination: String, onEvent: (@Sendable (TransferEvent) -> Void)?) {
        do {
            try journal?.remove(destination: destination)
        } catch {
            onEvent?(.warning("\(destination) is complete, but the journal could not be updated: \(error)"))
        }
    }

    private func journalCall<T>(_ body: () throws(SQLiteError) -> T) throws(DownloadError) -> T {
        do { return try body() } catch { throw .journal(error) }
    }
}

extension DownloadOptions {
    /// The time the finished file gets: the caller's precise one, else Last-Modified, or none.
    func settledModificationTime(lastModified: String?) -> Double? {
        guard preserveModificationTime else { return nil }
        return modificationTime ?? lastModified.flatMap(HTTPDate.parse)
    }
}
