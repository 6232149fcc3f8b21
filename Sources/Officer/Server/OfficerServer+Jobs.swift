import FileModel
import Foundation
import HTTP
import Transfer

/// What following a server job reports: each change of its state or progress.
package enum JobEvent: Sendable, Equatable {
    /// The job as it now is.
    case changed(Job)
}

extension JobEvent: CoalescibleEvent {
    /// A job's changes replace each other; a consumer needs only the latest.
    package var coalescingKey: Int? {
        if case .changed(let job) = self, !job.state.isFinal { 0 } else { nil }
    }
}

/// A server job being followed: its changes, then the job as it ended.
package typealias JobOperation = ProgressOperation<JobEvent, Job, any Error>

extension OfficerServer {
    /// The signed-in user's jobs on the server, oldest first; ``OfficerError/notOffered(request:feature:)`` from a
    /// server without jobs (the seed's answers every call when its work is done).
    package func jobs() async throws -> [Job] {
        if isOffline { throw FrontDoorRefusal.needsNetwork("the server's jobs") }
        let client = try client
        do {
            return try await client.jobs()
        } catch {
            guard case .notFound = error else { throw error }
            throw OfficerError.notOffered(request: "jobs", feature: "jobs (its work is answered when it is done)")
        }
    }

    /// One job as it is now.
    package func job(id: String) async throws -> Job {
        if isOffline { throw FrontDoorRefusal.needsNetwork("job \(id)") }
        return try await client.job(id)
    }

    /// Cancels a job: the server stops its engine and removes what it wrote; the job as it then is.
    package func cancelJob(id: String) async throws -> Job {
        if isOffline { throw FrontDoorRefusal.needsNetwork("job \(id)") }
        return try await client.cancelJob(id)
    }

    /// Follows a job until it ends, reporting each change (long polls: no request while nothing changes for
    /// seconds). With `requireSuccess`, a job that failed or was cancelled is thrown as the error its request
    /// would have answered with; otherwise it is returned as it ended. Cancelling stops following, not the job:
    /// it goes on on the server and can be followed again.
    package func follow(_ job: Job, requireSuccess: Bool = true) -> JobOperation {
        JobOperation { report in
            let client = try self.client
            report(.changed(job))
            let final = try await client.follow(job) { report(.changed($0)) }
            if requireSuccess, final.state != .done {
                _ = try OfficerClient.outcome(
                    of: final, request: "\(final.kind) \(final.target ?? final.id)", as: JSONValue.self)
            }
            return final
        }
    }

    /// A job for work the server finished within its request: the same record a followed job ends with.
    static func finishedJob(kind: String, target: String, result: some Encodable) -> Job {
        let value = (try? JSONEncoder().encode(result)).flatMap { try? JSONDecoder().decode(JSONValue.self, from: $0) }
        return Job(
            id: "", kind: kind, target: target, state: .done, progress: JobProgress(message: "done"), result: value)
    }

    /// The job behind an answer that may have been immediate, its paths on `base`'s server and root.
    static func job<Response: Encodable & Sendable>(
        from answer: JobAnswer<Response>, kind: String, target: String, base: RemotePath
    ) -> Job {
        var job: Job
        switch answer {
        case .accepted(let accepted): job = accepted
        case .finished(let response): job = finishedJob(kind: kind, target: target, result: response)
        }
        job.base = base
        return job
    }
}
