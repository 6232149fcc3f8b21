import FileModel
import Foundation
import HTTP
import Journal

extension SegmentedDownloader {
    /// Fetches range `index` of `plan` into the temp file: the driver of a ``RangeFetchMachine``, which decides
    /// what each answer means; this sends its requests, waits on the injected clock, and keeps `progress` (what the
    /// journal writer records) up to date.
    func fetch(
        segment index: Int, plan: SegmentedDownloadMachine.Plan, job: Job, progress: SegmentProgress, rate: Int64?
    ) async throws {
        let policy = http.configuration.retry
        var machine = RangeFetchMachine(
            segment: progress.snapshot[index], total: plan.total, etag: plan.info.etag,
            limit: job.options.maxAttemptsWithoutProgress ?? policy.maxAttemptsWithoutProgress,
            pieceLimit: http.configuration.engine.fileBodyPieceLimit)
        var lastFailure: DownloadError?
        var action = machine.begin()
        while true {
            try Task.checkCancellation()
            let event: RangeFetchMachine.Event
            switch action {
            case .send(let from, let through):
                let attempt = try await fetchAttempt(
                    index, from: from, through: through, plan: plan, job: job, progress: progress, rate: rate)
                (event, lastFailure) = (attempt.event, attempt.failure)
            case .wait(let attempt, let reason, let retryAfter):
                let delay = policy.delay(afterAttempt: attempt, retryAfter: retryAfter)
                job.onEvent?(.retrying(part: index, attempt: attempt + 1, delay: delay, reason: reason))
                try await http.configuration.clock.sleep(for: .seconds(delay))
                event = .waited
            case .finish:
                return
            case .restart(let reason, let changed):
                throw Restart(reason: reason, changed: changed)
            case .fail:
                throw lastFailure
                    ?? DownloadError.unexpectedAnswer(
                        url: URLRedaction.redacted(job.url), reason: "no answer to fail with")
            }
            action = machine.handle(event)
        }
    }

    /// One GET of bytes `from` through `through` of range `index`: what happened, as the machine's event, and the
    /// error it is if it ends the range.
    private func fetchAttempt(
        _ index: Int, from: Int64, through: Int64, plan: SegmentedDownloadMachine.Plan, job: Job,
        progress: SegmentProgress, rate: Int64?
    ) async throws -> (event: RangeFetchMachine.Event, failure: DownloadError?) {
        let base = progress.done(index)
        let request = rangeRequest(index, from: from, through: through, plan: plan, job: job, rate: rate)
        let policy = http.configuration.retry
        let onEvent = job.onEvent
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
            } else {
                countFetched(since: base, index, progress: progress)
            }
            await release(request, recording: response.status == 206 ? (progress, job.partial) : nil)
            let announced = response.headers["Content-Range"].flatMap(HTTPHeaders.parseContentRange)?.total
            return (
                .answered(
                    status: response.status, done: progress.done(index), announcedTotal: announced,
                    verdict: policy.verdict(for: response)),
                serverError(url: job.url, response: response)
            )
        } catch let error as HTTPError {
            await release(request, recording: nil)
            switch error {
            case .rejected(_, let status, let why): return (.refused(status: status, reason: why), nil)
            case .cancelled: throw CancellationError()
            default:
                countFetched(since: base, index, progress: progress)
                return (
                    .transportFailed(done: progress.done(index), verdict: policy.verdict(for: error)), .transfer(error)
                )
            }
        }
    }

    /// Lets the engine forget the attempt's task (kept for a later process while its answer was not yet recorded),
    /// after the journal holds the piece it brought: a kill between the two then costs nothing.
    private func release(_ request: HTTPRequest, recording: (SegmentProgress, PartialFile)?) async {
        guard let label = request.transferLabel else { return }
        if let (progress, partial) = recording { try? flushJournal(progress, partial: partial, sync: false) }
        await http.configuration.engine.releaseTask(labelled: label)
    }

    /// The bytes a failed attempt stored are kept and were fetched: they count in the rate.
    private func countFetched(since base: Int64, _ index: Int, progress: SegmentProgress) {
        progress.addFetched(max(0, progress.done(index) - base))
    }

    /// The GET of bytes `from` through `through`, held to the plan's version, its answer checked before its body is
    /// taken: a 206 must carry exactly that Content-Range of that length; a 200 (the whole file) is refused.
    private func rangeRequest(
        _ index: Int, from: Int64, through: Int64, plan: SegmentedDownloadMachine.Plan, job: Job, rate: Int64?
    ) -> HTTPRequest {
        var request = HTTPRequest(
            url: job.url, sink: .file(path: job.partial.path, offset: from), credential: job.token,
            redirects: .anyOrigin)
        request.headers.add("Range", "bytes=\(from)-\(through)")
        request.transferLabel = "download \(job.partial.path) #\(index) \(from)-\(through)"
        request.keepsTaskUntilReleased = true
        addCondition(&request, info: plan.info)
        request.maxReceiveBytesPerSecond = rate
        let (expected, total) = (from...through, plan.total)
        request.responseCheck = { status, headers in
            switch status {
            case 206:
                guard let value = headers["Content-Range"], let parsed = HTTPHeaders.parseContentRange(value),
                    parsed.range == expected, parsed.total == total
                else {
                    return
                        "Content-Range \(headers["Content-Range"] ?? "missing") is not bytes \(from)-\(through)/\(total)"
                }
                return nil
            case 200: return "the whole file instead of a range: it changed on the server, or Range is ignored"
            default: return nil
            }
        }
        return request
    }
}
