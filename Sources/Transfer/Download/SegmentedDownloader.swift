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

    /// Why a download must start over, thrown from deep in an attempt and handed to the machine as an event.
    struct Restart: Error {
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
        let partial = try PartialFile.claim(for: destination, force: given.force)
        var job = Job(url: url, token: credential, partial: partial, options: given, onEvent: onEvent)
        var machine = SegmentedDownloadMachine(
            url: url, wantedSegments: given.segments, bootID: TransferJournal.currentBootID)
        var action = machine.begin(known: job.known)
        defer { job.versionAtTail?.cancel() }
        while true {
            do {
                switch try await perform(action, job: &job) {
                case .event(let event):
                    action = machine.handle(event)
                case .finished(let result):
                    return result
                case .restart(let reason, let refresh):
                    onEvent?(.restarted(reason: reason))
                    job.options.headAnswer = nil  // of the version that was: the next attempt asks again
                    if refresh, let update = job.options.refreshOnChange { job.options = await update(job.options) }
                    action = machine.begin(known: job.known)
                }
            } catch let restart as Restart {
                action = machine.handle(
                    .mustRestart(
                        reason: restart.reason, changed: restart.changed, afterLastByte: restart.afterLastByte))
            } catch {
                throw abandon(partial, after: error, url: url)
            }
        }
    }

    /// What one download is of, where it goes and who hears of it.
    struct Job {
        var url: String
        var token: BearerCredential?
        var partial: PartialFile
        var options: DownloadOptions
        var onEvent: (@Sendable (TransferEvent) -> Void)?
        /// Bytes the ranges received in this run.
        var fetched: Int64 = 0
        /// The SHA-256 of the ranges' bytes, taken as they landed in this run.
        var landing: LandingDigest?
        /// The server's version, asked as the ranges' last bytes came (``TailWatch``).
        var versionAtTail: Task<RemoteFileInfo?, any Error>?

        var known: SegmentedDownloadMachine.Known {
            .init(
                length: options.knownLength, etag: options.knownETag, servesRanges: options.knownServesRanges,
                headAnswer: options.headAnswer.map(RemoteFileInfo.init(headers:)))
        }
    }

    /// What one of the machine's actions came to.
    private enum Outcome {
        case event(SegmentedDownloadMachine.Event)
        case finished(DownloadResult)
        case restart(reason: String, refresh: Bool)
    }

    /// Carries out `action` on the journal, the server and the temp file.
    private func perform(_ action: SegmentedDownloadMachine.Action, job: inout Job) async throws -> Outcome {
        let (url, token, partial) = (job.url, job.token, job.partial)
        switch action {
        case .readRecord:
            let record = try journalCall { () throws(SQLiteError) in try journal?.download(for: partial.destination) }
            return .event(.recordRead(record, partialSize: partial.size))
        case .probe:
            return .event(.probed(try await probe(url: url, token: token)))
        case .askRanges(let said):
            return .event(.rangesAnswered(await servesRanges(url: url, credential: token, acceptRanges: said)))
        case .checkOverlaps(let plan):
            try await checkOverlaps(plan.segments, url: url, token: token, partial: partial, info: plan.info)
            return .event(.overlapsMatched)
        case .fetch(var plan):
            let landing =
                job.options.expectsSHA256(headers: plan.info.headers) ? LandingDigest(path: partial.path) : nil
            // As many at once as asked (a resumed plan may be in pieces already); hashed as they land, in pieces.
            let connections = min(
                plan.segments.count, DownloadOptions.segmentCount(total: plan.total, wanted: job.options.segments))
            if landing != nil { plan = plan.inPieces(Self.piecesPerRange) }
            let written = try await fetchRanges(plan, connections: connections, job: job, landing: landing)
            job.fetched = written.fetched
            job.landing = landing
            job.versionAtTail = written.versionAtTail
            return .event(.fetched(written: written.bytes, fileSize: partial.size))
        case .verify(let plan):
            return .finished(try await finishRanges(plan, job: job))
        case .streamWhole(let info, let journaled):
            return .finished(try await streamWhole(info: info, journaled: journaled, job: job))
        case .restart(let reason, let refresh):
            job.landing = nil
            job.versionAtTail?.cancel()
            job.versionAtTail = nil
            return .restart(reason: reason, refresh: refresh)
        case .fail(let failure):
            throw failed(failure, job: job)
        }
    }

    /// The error of a download that cannot go on; one that gave up on a changing file leaves nothing behind.
    private func failed(_ failure: SegmentedDownloadMachine.Failure, job: Job) -> DownloadError {
        switch failure {
        case .lengthMismatch(let expected, let actual):
            return .lengthMismatch(path: job.partial.destination, expected: expected, actual: actual)
        case .unstable, .unexpectedAnswer:
            job.partial.discard()
            try? journal?.remove(destination: job.partial.destination)
            if case .unexpectedAnswer(let reason) = failure {
                return .unexpectedAnswer(url: URLRedaction.redacted(job.url), reason: reason)
            }
            return .unstable(url: URLRedaction.redacted(job.url))
        }
    }

    /// A download that failed: without a journal record the temp file cannot be resumed from, so nothing is left
    /// behind. A journal that cannot be read tells nothing either way, so the bytes stay for a rerun to judge.
    private func abandon(_ partial: PartialFile, after error: any Error, url: String) -> DownloadError {
        var recorded = false
        if let journal {
            do { recorded = try journal.download(for: partial.destination) != nil } catch { recorded = true }
        }
        if !recorded { partial.discard() }
        switch error {
        case let error as DownloadError: return error
        case is CancellationError: return .transfer(.cancelled(request: "GET \(url)"))
        default: return .localFile(path: partial.destination, message: "\(error)")
        }
    }

    // MARK: The ways a file comes

    /// How many pieces each range of a download hashed as it lands is cut into
    /// (``SegmentedDownloadMachine/Plan/inPieces(_:)``).
    package static let piecesPerRange = 4

    /// Fetches the plan's ranges into the temp file, `connections` at once in their order, journaling their
    /// progress; returns the bytes the ranges hold in all, those fetched in this run, and the server's version
    /// asked as the last bytes came.
    private func fetchRanges(
        _ plan: SegmentedDownloadMachine.Plan, connections: Int, job: Job, landing: LandingDigest?
    ) async throws
        -> (bytes: Int64, fetched: Int64, versionAtTail: Task<RemoteFileInfo?, any Error>?)
    {
        let partial = job.partial
        let reservation = try start(plan, job: job)
        job.onEvent?(
            .started(
                total: plan.total, partSizes: plan.segments.map(\.length), resumedBytes: plan.resumed, method: .ranges,
                partsResumed: plan.segments.map(\.done)))
        // Where the bytes are checked by a SHA-256, the version is asked as the last bytes come, not after them.
        let asksAtTail = landing != nil && asksVersionAfterBytes(plan.info)
        let progress = SegmentProgress(
            plan.segments, landing: landing, watchingTailOn: asksAtTail ? http.configuration.clock : nil)
        let versionAtTail = asksAtTail ? askVersion(when: progress.tailReached, job: job, info: plan.info) : nil
        // Every way out gives the signal: every byte in, the tail never seen, now is the time; a failure has
        // cancelled the question, which then ends instead of waiting for good.
        defer { progress.tailReached.fire() }
        let rate = job.options.bandwidthLimit.map { $0 / Int64(max(1, connections)) }
        // A child task's answer: whether a range ended (a connection is free for the next).
        try await withThrowingTaskGroup(of: Bool.self) { group in
            let journalTask = Task { await journalLoop(progress, partial: partial) }
            defer { journalTask.cancel() }
            if let reservation {
                // Beside the first requests: reserving a large file takes tens of milliseconds (tmpfs zeroes its
                // pages), and the ranges may write into it meanwhile.
                group.addTask {
                    partial.reserveBlocks(reservation)
                    return false
                }
            }
            var waiting = plan.segments.filter { $0.done < $0.length }.map(\.index)[...]
            var running = 0
            do {
                while true {
                    while running < max(1, connections), let index = waiting.popFirst() {
                        group.addTask {
                            try await fetch(segment: index, plan: plan, job: job, progress: progress, rate: rate)
                            return true
                        }
                        running += 1
                    }
                    guard let rangeEnded = try await group.next() else { break }
                    if rangeEnded { running -= 1 }
                }
            } catch {
                group.cancelAll()
                versionAtTail?.cancel()
                journalTask.cancel()
                await journalTask.value
                try? flushJournal(progress, partial: partial, sync: false)
                throw error
            }
            journalTask.cancel()
            await journalTask.value
        }
        return (progress.snapshot.reduce(0) { $0 + $1.done }, progress.fetchedBytes, versionAtTail)
    }

    /// The server's version of the file, asked once `signal` is given where the bytes will be checked by a
    /// SHA-256 (its answer awaited by ``checkStillSame(url:token:as:atTail:)``); else not asked (it fails).
    private func askVersion(when signal: WakeSignal, job: Job, info: RemoteFileInfo) -> Task<
        RemoteFileInfo?, any Error
    > {
        Task { [url = job.url, token = job.token, options = job.options] in
            await signal.wait()
            try Task.checkCancellation()
            // The server's checksum was asked beside the first requests: by now it said whether it has one. Awaited
            // from a task of its own: a pending checksum's wait gives up the ask itself when its waiter is cancelled,
            // and this question's end (a restart) must not end the checksum the next attempt awaits.
            let checked = Task { (try? await options.expectedChecksum(headers: info.headers))?.algorithm == .sha256 }
            guard await checked.value else { throw CancellationError() }
            try Task.checkCancellation()
            return try await probe(url: url, token: token)
        }
    }

    /// Makes the temp file and the journal record ready for the plan's ranges (parallel ranges land in place in a
    /// file of the whole length; a single range just grows it); returns the length whose disk is to be reserved
    /// beside the first requests, if any.
    private func start(_ plan: SegmentedDownloadMachine.Plan, job: Job) throws -> Int64? {
        let destination = job.partial.destination
        switch plan.begin {
        case .resume:
            try journalCall { () throws(SQLiteError) in try journal?.claimBoot(destination: destination) }
            return nil
        case .fresh(let preallocated):
            // The file has its length before the record names it: a resume trusts ranges up to the file's size.
            let reservation = try job.partial.reset(length: preallocated)
            let record = TransferJournal.Download(
                destination: destination, url: job.url, tempPath: job.partial.path, etag: plan.info.etag,
                lastModified: plan.info.lastModified, total: plan.total, bootID: TransferJournal.currentBootID,
                segments: plan.segments, source: sourceName)
            try journalCall { () throws(SQLiteError) in try journal?.save(record) }
            return reservation
        }
    }

    /// The ranges' bytes verified, checked to be the server's current version, and renamed into place.
    private func finishRanges(_ plan: SegmentedDownloadMachine.Plan, job: Job) async throws -> DownloadResult {
        let partial = job.partial
        job.onEvent?(.verifying)
        let (digest, check) = try await verifyAndCheckStillSame(
            partial: partial, options: job.options, url: job.url, token: job.token, as: plan.info,
            landed: job.landing.map { ($0, plan.total) }, versionAtTail: job.versionAtTail)
        try partial.commit(
            force: job.options.force,
            modificationTime: job.options.settledModificationTime(lastModified: plan.info.lastModified))
        forgetFinished(partial.destination, onEvent: job.onEvent)
        var result = DownloadResult(
            path: partial.destination, bytes: plan.total, resumedBytes: plan.resumed, fetchedBytes: job.fetched,
            sha256: digest, etag: plan.info.strongETag)
        result.checkedBy = check
        return result
    }

    /// One GET from the start. A journaled one is recorded without ranges all the same, so that a killed run's temp
    /// file is listed and cleaned like any other; with nothing to resume from, a failure drops its record, and
    /// `download` the bytes with it.
    private func streamWhole(info: RemoteFileInfo?, journaled: Bool, job: Job) async throws -> DownloadResult {
        let partial = job.partial
        guard journaled else {
            try partial.reset(length: nil)
            return try await singleStream(
                url: job.url, token: job.token, partial: partial, info: info, options: job.options,
                onEvent: job.onEvent)
        }
        let record = TransferJournal.Download(
            destination: partial.destination, url: job.url, tempPath: partial.path, etag: info?.etag,
            lastModified: info?.lastModified, total: info?.total, bootID: TransferJournal.currentBootID,
            segments: [], source: sourceName)
        try journalCall { () throws(SQLiteError) in try journal?.save(record) }
        try partial.reset(length: nil)
        do {
            let result = try await singleStream(
                url: job.url, token: job.token, partial: partial, info: info, options: job.options,
                onEvent: job.onEvent)
            forgetFinished(partial.destination, onEvent: job.onEvent)
            return result
        } catch {
            try? journal?.remove(destination: partial.destination)
            throw error
        }
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

    /// Whether the server is asked for the file's version once the bytes are in
    /// (``checkStillSame(url:token:as:atTail:)``). An object store replaces an object whole, and every
    /// range asked `If-Match` its strong ETag: all the bytes are of that one version already, and a second HEAD
    /// would only cost a request per object.
    private func asksVersionAfterBytes(_ first: RemoteFileInfo) -> Bool {
        !(rangeCondition == .ifMatch && first.strongETag != nil)
    }

    /// After the last byte and before the final name, the server is asked again for the file's version: a server
    /// reads a file as it sends it, so an edit while the last (or only) range streamed gives early bytes of one
    /// version and late bytes of another, which no `If-Range` sees. Any validator it gives counts (ETag, size,
    /// Last-Modified); a difference restarts the download.
    ///
    /// Where the bytes are checked by a SHA-256, the answer asked as the last bytes came (`atTail`, asked only
    /// then) serves: an edit the server's answer came too early to see either tore the bytes (the checksum fails
    /// them, and the file is fetched again) or touched only bytes already sent (the old version whole, as an edit
    /// just after the last byte would leave it); a round trip less. Without a checksum, or where that question
    /// failed, the server is asked after the last byte.
    /// Returns whether the answer asked at the tail served.
    @discardableResult
    private func checkStillSame(
        url: String, token: BearerCredential?, as first: RemoteFileInfo, atTail: Task<RemoteFileInfo?, any Error>?
    ) async throws -> Bool {
        guard asksVersionAfterBytes(first) else { return false }
        // A download left while its bytes are checked ends the question asked at the tail too.
        let early = await withTaskCancellationHandler {
            await atTail?.result
        } onCancel: {
            atTail?.cancel()
        }
        let now: RemoteFileInfo?
        let served: Bool
        if case .success(let answer) = early {
            (now, served) = (answer, true)
        } else {
            (now, served) = (try await probe(url: url, token: token), false)
        }
        guard let now else { return served }  // no HEAD: nothing more to ask
        let differs =
            (first.etag != nil && now.etag != nil && first.etag != now.etag)
            || (first.lastModified != nil && now.lastModified != nil && first.lastModified != now.lastModified)
            || (first.total != nil && now.total != nil && first.total != now.total)
        if differs {
            throw Restart(reason: "the file changed on the server while it was being downloaded", afterLastByte: true)
        }
        return served
    }

    /// The bytes on disk are the server's current version of the file, and the one expected: the server asked
    /// again for the version (``checkStillSame(url:token:as:)``: bytes that match an older version's checksum are
    /// whole, but not the file the server holds now), then checked by ``ContentVerification`` against the strongest
    /// validator there is (the checksum given or asked while the bytes came, ``DownloadOptions/pendingChecksum``,
    /// else the one the answer's headers carry). Returns the SHA-256 where that was the check, and the check.
    func verifyAndCheckStillSame(
        partial: PartialFile, options: DownloadOptions, url: String, token: BearerCredential?,
        as first: RemoteFileInfo, headers: HTTPHeaders? = nil, landed: (digest: LandingDigest, length: Int64)? = nil,
        versionAtTail: Task<RemoteFileInfo?, any Error>? = nil
    ) async throws -> (sha256: String?, check: ContentCheck) {
        // The server is asked while the bytes are hashed here (a round trip beside the hashing, not after it); a
        // change it tells comes before what the hash says (bytes of two versions fail any checksum: a restart).
        async let stillSame = checkStillSame(url: url, token: token, as: first, atTail: versionAtTail)
        let hashed = await Result.awaiting { () async throws(any Error) in
            let expected = try await options.expectedChecksum(headers: headers ?? first.headers)
            // Hashed as the bytes landed, where the check is a SHA-256: what is left is what came after the frontier.
            if let landed, expected?.algorithm == .sha256,
                let actual = await landed.digest.finish(length: landed.length)
            {
                return (verdict: ContentVerification.check(actual: actual, against: expected), sha256: Optional(actual))
            }
            return try ContentVerification.check(file: partial.path, against: expected)
        }
        let answeredAtTail = try await stillSame
        if answeredAtTail, case .success((.failure, _)) = hashed {
            // The answer asked at the tail may have come just before an edit that tore these bytes: the server is
            // asked once more before they are called damaged (a change is a restart, as it was before that answer;
            // no answer leaves the mismatch standing, and its bytes are dropped).
            do {
                try await checkStillSame(url: url, token: token, as: first, atTail: nil)
            } catch let restart as Restart {
                throw restart
            } catch {}
        }
        if case .success((.success, _)) = hashed {
            // Left while its bytes were checked (a screen closed as the last range came): nothing takes the name,
            // and journaled bytes stay for the next open. Bytes that failed their check are dropped first.
            try Task.checkCancellation()
        }
        return try settle(hashed.get(), partial: partial)
    }

    /// The bytes on disk against the checksum the options give, if any; a mismatch drops them.
    func verify(partial: PartialFile, options: DownloadOptions, headers: HTTPHeaders?) async throws -> (
        sha256: String?, check: ContentCheck
    ) {
        try verify(partial: partial, expected: await options.expectedChecksum(headers: headers))
    }

    private func verify(partial: PartialFile, expected: Checksum?) throws -> (sha256: String?, check: ContentCheck) {
        try settle(ContentVerification.check(file: partial.path, against: expected), partial: partial)
    }

    /// What a check of the bytes on disk means: the check that passed, or the bytes dropped and the mismatch thrown.
    private func settle(
        _ checked: (verdict: Result<ContentCheck, ContentVerification.Mismatch>, sha256: String?), partial: PartialFile
    ) throws -> (sha256: String?, check: ContentCheck) {
        let (verdict, sha256) = checked
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

    /// The header fields of a HEAD of `url` when the server answers it with success, else nil (no HEAD, a refusal,
    /// no answer): for a caller to ask beside its own first question and hand over as
    /// ``DownloadOptions/headAnswer``. Its failures are not told: the download asks again and tells its own.
    package func headAnswer(from url: String, credential: BearerCredential?) async -> HTTPHeaders? {
        let request = HTTPRequest(method: "HEAD", url: url, credential: credential, redirects: .anyOrigin)
        guard let response = try? await http.send(request), response.isSuccess else { return nil }
        return response.headers
    }

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

    func serverError(url: String, response: HTTPResponse) -> DownloadError {
        .server(url: URLRedaction.redacted(url), status: response.status, message: response.errorMessage)
    }

    /// Adds the condition that keeps a range to the version the download started with.
    func addCondition(_ request: inout HTTPRequest, info: RemoteFileInfo) {
        switch rangeCondition {
        case .ifRange:
            if let validator = info.rangeValidator { request.headers.add("If-Range", validator) }
        case .ifMatch:
            if let etag = info.strongETag {
                request.headers.add("If-Match", etag)
            } else if let lastModified = info.lastModified {
                request.headers.add("If-Unmodified-Since", lastModified)
            }
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
        onEvent?(.verifying)
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

    /// Writes the live offsets every `journalInterval` while they move, and flushes the file (and records its
    /// offsets as durable) every `syncInterval`; both measured on the HTTP configuration's clock, as ticks of it.
    private func journalLoop(_ progress: SegmentProgress, partial: PartialFile) async {
        guard journal != nil else { return }
        let clock = http.configuration.clock
        let ticksPerSync = max(1, Int((syncInterval / journalInterval).rounded()))
        var ticks = 0
        var last = progress.snapshot.map(\.done)
        while !Task.isCancelled {
            try? await clock.sleep(for: .seconds(journalInterval))
            ticks += 1
            let sync = ticks >= ticksPerSync
            let current = progress.snapshot.map(\.done)
            if sync || current != last {
                try? flushJournal(progress, partial: partial, sync: sync)
                last = current
                if sync { ticks = 0 }
            }
        }
        try? flushJournal(progress, partial: partial, sync: true)
    }

    /// Writes live offsets; with `sync`, flushes the file first and records those offsets as durable too.
    func flushJournal(_ progress: SegmentProgress, partial: PartialFile, sync: Bool) throws {
        guard let journal else { return }
        try progress.oneJournalWriteAtATime {
            let before = progress.snapshot
            if sync {
                try partial.sync()
                progress.markSynced(before.map(\.done))
            }
            try journal.updateProgress(
                destination: partial.destination,
                before.map { (index: $0.index, done: $0.done, synced: sync ? $0.done : nil) })
        }
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
