import FileModel
import Foundation
import HTTP

/// How the server answered a call that may become a job: at once with its result, or 202 with a job to follow.
package enum JobAnswer<Response: Sendable>: Sendable {
    /// The work finished within the request.
    case finished(Response)
    /// The work goes on as this job.
    case accepted(Job)
}

extension OfficerClient {
    /// Seconds one long poll of a job waits for a change (under the transport's stall timeout).
    static let jobPollSeconds = 10.0

    /// Sends a call whose work may outlast the request: a 202 answer is a job, any other success is decoded.
    func start<Response: Decodable & Sendable>(
        _ path: String, body: some Encodable, subject: String?, as type: Response.Type = Response.self
    ) async throws(OfficerError) -> JobAnswer<Response> {
        let response = try await raw("POST", path, body: body, subject: subject)
        let label = "POST \(path)"
        do {
            if response.status == 202 {
                return .accepted(try JSONDecoder().decode(JobEnvelope.self, from: response.body).job)
            }
            return .finished(try JSONDecoder().decode(Response.self, from: response.body))
        } catch {
            throw .malformedResponse(request: label, detail: String(describing: error))
        }
    }

    /// The caller's jobs on the server, oldest first (`GET /api/jobs`).
    package func jobs() async throws(OfficerError) -> [Job] {
        try await call("GET", "/api/jobs", as: JobList.self).jobs
    }

    /// One job; with `waiting` seconds, the server answers as soon as the job changes past `revision` (a long
    /// poll), or after that time.
    package func job(_ id: String, waiting: Double = 0, after revision: Int? = nil) async throws(OfficerError) -> Job {
        var query: [(String, String)] = []
        if waiting > 0 { query.append(("wait", String(waiting))) }
        if let revision { query.append(("revision", String(revision))) }
        return try await call(
            "GET", "/api/jobs/" + Self.jobIDComponent(id), query: query, subject: "job \(id)", as: JobEnvelope.self
        ).job
    }

    /// Cancels a job (`DELETE /api/jobs/{id}`); the server stops its engine and removes what it wrote. A
    /// finished job is answered as it is.
    package func cancelJob(_ id: String) async throws(OfficerError) -> Job {
        try await call("DELETE", "/api/jobs/" + Self.jobIDComponent(id), subject: "job \(id)", as: JobEnvelope.self).job
    }

    /// Follows a job until it is final, reporting each change; cancelling the task stops following, not the job.
    /// With a `timeout` (seconds), a job still running after it is a 504 (the job goes on).
    package func follow(
        _ job: Job, timeout: Double? = nil, onChange: (@Sendable (Job) -> Void)? = nil
    ) async throws(OfficerError) -> Job {
        var current = job
        var idle = 0
        let deadline = timeout.map { ContinuousClock.now + .milliseconds(Int64($0 * 1000)) }
        while !current.state.isFinal {
            if Task.isCancelled { throw .transport(.cancelled(request: "GET /api/jobs/\(job.id)")) }
            if let deadline, ContinuousClock.now >= deadline {
                throw .server(
                    request: "\(job.kind) \(job.target ?? job.id)", status: 504,
                    message: "job \(job.id) still running after \(Int(timeout ?? 0)) s; it goes on on the server")
            }
            let asked = ContinuousClock.now
            var next = try await self.job(current.id, waiting: Self.jobPollSeconds, after: current.revision)
            // The server's record names paths only; where they are stays what the request said.
            next.base = current.base
            if next.revision != current.revision {
                onChange?(next)
                idle = 0
            } else if ContinuousClock.now - asked < .seconds(1) {
                // A server that ignores the long poll answers at once without a change: pace the questions
                // (up to every 2 s) rather than ask in a tight loop.
                idle += 1
                try? await http.configuration.clock.sleep(for: .milliseconds(min(2000, 100 * idle)))
            }
            current = next
        }
        return current
    }

    /// A job id as one path component: ids come from servers and users, and must not add a path.
    static func jobIDComponent(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? id
    }

    /// The result of a call that may have become a job: followed to its end, then decoded like the answer the
    /// call would have given; a failed job is thrown as the error its request would have answered with.
    func finish<Response: Decodable & Sendable>(
        _ answer: JobAnswer<Response>, request label: String, timeout: Double? = nil,
        onChange: (@Sendable (Job) -> Void)? = nil
    ) async throws(OfficerError) -> Response {
        switch answer {
        case .finished(let response): return response
        case .accepted(let job):
            let final = try await follow(job, timeout: timeout, onChange: onChange)
            return try Self.outcome(of: final, request: label, as: Response.self)
        }
    }

    /// A final job's result as `Response`, or its failure as the ``OfficerError`` its request would have given.
    package static func outcome<Response: Decodable>(of job: Job, request label: String, as type: Response.Type)
        throws(OfficerError) -> Response
    {
        switch job.state {
        case .done:
            guard let value = job.result(as: Response.self) else {
                throw .malformedResponse(request: label, detail: "job \(job.id) finished without the expected result")
            }
            return value
        case .cancelled:
            throw .conflict(
                request: label, message: "\(job.target ?? job.kind): job \(job.id) was cancelled", code: "cancelled")
        default:
            let failure = job.error ?? JobFailure(status: 500, code: "job_failed", message: "job \(job.id) failed")
            throw OfficerError.fromFailure(failure, request: label)
        }
    }
}

extension OfficerError {
    /// The error a failed job's request would have answered with, from the status and code it recorded.
    static func fromFailure(_ failure: JobFailure, request label: String) -> OfficerError {
        switch (failure.status ?? 500, failure.code) {
        case (404, _): .notFound(request: label, message: failure.message)
        case (409, let code): .conflict(request: label, message: failure.message, code: code)
        case (403, _): .forbidden(request: label, message: failure.message)
        case (400, let code), (413, let code), (415, let code), (422, let code), (507, let code):
            .badRequest(request: label, message: failure.message, code: code)
        case (let status, _): .server(request: label, status: status, message: failure.message)
        }
    }
}
